package quicgo

import (
	"math/rand/v2"

	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/interop/quicgo/quicqpack"
)

// randomSeed makes the random header lists the same on every run.
const randomSeed = 0x9204

// maxListSize bounds a random list's size in RFC 9114 terms (names, values
// and 32 bytes per field), below the decoders' default 64 KiB.
const maxListSize = 60 << 10

// randomLists returns n header lists and, for each, which fields to mark
// sensitive. The first list is empty. Names never hold uppercase letters;
// they are static-table names (with the entry's value, another value or an
// empty one) or made-up ones, some long and some with non-ASCII bytes.
// Values are empty, short, long (up to 8 KiB), ASCII, non-ASCII or any byte.
func randomLists(n int, seed uint64) (lists [][]quicqpack.Field, sensitive [][]bool) {
	r := rand.New(rand.NewPCG(seed, seed^0x5eed))
	lists = make([][]quicqpack.Field, n)
	sensitive = make([][]bool, n)
	for i := 1; i < n; i++ {
		size := 0
		for k := r.IntN(30) + 1; k > 0; k-- {
			f := randomField(r)
			if size += len(f.Name) + len(f.Value) + 32; size > maxListSize {
				break
			}
			lists[i] = append(lists[i], f)
			sensitive[i] = append(sensitive[i], r.IntN(8) == 0)
		}
	}
	return lists, sensitive
}

func randomField(r *rand.Rand) quicqpack.Field {
	e, _ := tier.QPACKEntryAt(r.IntN(tier.QPACKTableLen))
	name, value := e.Name.String(), ""
	if e.Value != nil {
		value = e.Value.String()
	}
	switch r.IntN(6) {
	case 0, 1: // the static entry itself
	case 2: // a static name with another value
		value = randomValue(r)
	case 3: // a static name with an empty value
		value = ""
	case 4: // a made-up name
		name, value = randomName(r), randomValue(r)
	default: // a made-up name with an empty value
		name, value = randomName(r), ""
	}
	return quicqpack.Field{Name: name, Value: value}
}

const (
	tokenChars = "abcdefghijklmnopqrstuvwxyz0123456789-_."
	printable  = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"
)

func randomName(r *rand.Rand) string {
	switch r.IntN(8) {
	case 0: // long
		return randomFrom(r, tokenChars, 100+r.IntN(300))
	case 1: // a made-up pseudo-header
		return ":" + randomFrom(r, tokenChars, 1+r.IntN(10))
	case 2: // non-ASCII bytes and punctuation, no uppercase letter
		b := make([]byte, 1+r.IntN(20))
		for i := range b {
			c := byte(0x21 + r.IntN(0xff-0x21))
			if c >= 'A' && c <= 'Z' || c == 0x7f {
				c |= 0x80
			}
			b[i] = c
		}
		return string(b)
	default:
		return randomFrom(r, tokenChars, 1+r.IntN(30))
	}
}

func randomValue(r *rand.Rand) string {
	switch r.IntN(10) {
	case 0:
		return ""
	case 1: // long, Huffman shortens it
		return randomFrom(r, tokenChars, 1000+r.IntN(7000))
	case 2: // long, Huffman lengthens it
		b := make([]byte, 1000+r.IntN(3000))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return string(b)
	case 3: // non-ASCII bytes among ASCII ones (UTF-8 and not)
		b := make([]byte, 1+r.IntN(60))
		for i := range b {
			if b[i] = printable[r.IntN(len(printable))]; r.IntN(3) == 0 {
				b[i] = byte(0x80 + r.IntN(0x80))
			}
		}
		return string(b) + "é✓"
	case 4: // any byte, NUL and controls too
		b := make([]byte, 1+r.IntN(60))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return string(b)
	case 5, 6:
		return randomFrom(r, printable, 1+r.IntN(100))
	default:
		return randomFrom(r, tokenChars, 1+r.IntN(40))
	}
}

func randomFrom(r *rand.Rand, chars string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[r.IntN(len(chars))]
	}
	return string(b)
}
