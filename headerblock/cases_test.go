package headerblock_test

import (
	"fmt"
	"strings"
	"testing"
)

// The differential's hand-made categories. Static table entries used:
// 0x82 :method GET, 0x83 :method POST, 0x84 :path /, 0x85 :path
// /index.html, 0x86 :scheme http, 0x87 :scheme https, 0x88 :status 200;
// 0xbe is the newest dynamic table entry.

var (
	invalidNames = []string{
		"Upper", "UPPER", "a b", " a", "a\t", "caf\xc3\xa9", "\xff", "", "a:b", "a\x00", "a\x7f",
		"{", "\"", "(", "a,b",
		// Static table values used as names: not names, and not valid.
		"/", "GET", "POST", "http", "https", "200", "/index.html", "gzip, deflate",
	}
	validNames = []string{"x", "a!#$%&'*+-.^_`|~0", "content-type", "trailer", "te", "grpc-timeout", "x-" + strings.Repeat("z", 200)}
	// Values, valid and not: NUL, CR, LF and DEL are not; tab and bytes
	// from 0x80 are.
	fieldValues = []string{
		"a\x00b", "\r", "\n", "a\rb", "\x7f", "\x01", "\x1f", "a\x00",
		"\t", "a\tb", "\x80", "\xff\xfe", "caf\xc3\xa9", "", " ", " a ", "GET", "/",
	}
)

// oneBlock is a connection of one block, whole and with a CONTINUATION
// after each cut.
func blockVariants(name string, maxList uint32, block []byte) []diffCase {
	out := []diffCase{{name + "/whole", connConfig{maxList: maxList}, newConnWriter().headers(1, true, block).bytes()}}
	if len(block) > 1 {
		h := len(block) / 2
		out = append(out,
			diffCase{name + "/halves", connConfig{maxList: maxList}, newConnWriter().headers(3, false, block[:h], block[h:]).bytes()},
			diffCase{name + "/trailing-empty", connConfig{maxList: maxList}, newConnWriter().headers(5, false, block, nil).bytes()},
			diffCase{name + "/bytes", connConfig{maxList: maxList}, newConnWriter().headers(7, true, chunk(block, 1)...).bytes()})
	}
	return out
}

// withFollowers adds, after the block, a block that indexes the dynamic
// table's newest entry and a plain request, so that the table's state
// after the first block is compared too.
func withFollowers(name string, maxList uint32, block []byte) diffCase {
	w := newConnWriter().headers(1, false, block).headers(3, false, []byte{0xbe}).headers(5, true, []byte{0x82, 0x84, 0x86})
	return diffCase{name + "/followers", connConfig{maxList: maxList}, w.bytes()}
}

func fieldCases(prefix string, name, value string) []diffCase {
	var out []diffCase
	// 10: every field is over the list as well.
	for _, maxList := range []uint32{0, 40, 10} {
		tag := fmt.Sprintf("%s/%q=%q/max=%d", prefix, name, value, maxList)
		out = append(out, blockVariants(tag+"/lit", maxList, lit(name, value))...)
		out = append(out, blockVariants(tag+"/between", maxList, cat([]byte{0x82}, lit("a", "b"), lit(name, value), lit("c", "d")))...)
		out = append(out, blockVariants(tag+"/never", maxList, cat(litNever(name, value), []byte{0x84}))...)
		out = append(out, withFollowers(tag+"/indexed", maxList, litIdx(name, value)))
		// After a field over the list: x/net checks no more fields.
		out = append(out, blockVariants(tag+"/after-truncation", maxList, cat(lit("big", strings.Repeat("v", 30)), lit(name, value)))...)
	}
	return out
}

func nameCases(t *testing.T) []diffCase {
	var out []diffCase
	for _, n := range append(append([]string{}, invalidNames...), validNames...) {
		out = append(out, fieldCases("name", n, "v")...)
	}
	return out
}

func valueCases(t *testing.T) []diffCase {
	var out []diffCase
	for _, v := range fieldValues {
		out = append(out, fieldCases("value", "x", v)...)
		// A value on a static name, and on a pseudo-header field.
		out = append(out, blockVariants(fmt.Sprintf("value/content-type=%q", v), 0, litNamed(31, v))...)
		out = append(out, blockVariants(fmt.Sprintf("value/:path=%q", v), 0, cat([]byte{0x82}, litNamed(4, v)))...)
	}
	return out
}

func pseudoCases(t *testing.T) []diffCase {
	blocks := map[string][]byte{
		"after-regular":        cat(lit("a", "b"), []byte{0x82}),
		"after-regular-static": cat(litNamed(31, "text/plain"), []byte{0x88}),
		"repeated-method":      {0x82, 0x82},
		"method-twice":         {0x82, 0x83},
		"path-twice":           {0x84, 0x85},
		"scheme-twice":         {0x86, 0x87},
		"status-twice":         {0x88, 0x89},
		"authority-twice":      cat(litNamed(1, "a"), litNamed(1, "b")),
		"unknown":              cat([]byte{0x82}, lit(":foo", "x")),
		"unknown-first":        cat(lit(":foo", "x"), []byte{0x82}),
		"colon":                lit(":", "x"),
		"upper-pseudo":         lit(":Method", "GET"),
		"mixed":                {0x82, 0x88},
		"mixed-status-first":   {0x88, 0x84},
		"protocol":             cat([]byte{0x82, 0x84, 0x87}, litNamed(1, "a"), lit(":protocol", "websocket")),
		"protocol-twice":       cat(lit(":protocol", "a"), lit(":protocol", "b")),
		"protocol-status":      cat(lit(":protocol", "a"), []byte{0x88}),
		"request":              {0x82, 0x84, 0x86},
		"response":             cat([]byte{0x88}, lit("grpc-status", "0")),
		"pseudo-invalid-value": cat([]byte{0x82}, litNamed(4, "/\x00")),
		"dup-then-unknown":     cat([]byte{0x82, 0x82}, lit(":foo", "x")),
		"unknown-then-mixed":   cat(lit(":foo", "x"), []byte{0x82, 0x88}),
		"pseudo-literal-names": cat(lit(":method", "GET"), lit(":path", "/"), lit(":status", "200")),
		"indexed-after-reg":    cat(litIdx("x", "y"), []byte{0x82}),
	}
	var out []diffCase
	for name, b := range blocks {
		for _, maxList := range []uint32{0, 50, 100} {
			tag := fmt.Sprintf("pseudo/%s/max=%d", name, maxList)
			out = append(out, blockVariants(tag, maxList, b)...)
			out = append(out, withFollowers(tag, maxList, b))
		}
	}
	return out
}

func continuationCases(t *testing.T) []diffCase {
	req := []byte{0x82, 0x84, 0x86, 0x41, 0x01, 'a'} // ... :authority a, indexed
	var out []diffCase
	add := func(name string, w *connWriter) {
		out = append(out, diffCase{"continuation/" + name, connConfig{}, w.bytes()})
	}
	// Floods of empty CONTINUATION frames: the Reader's default bound of
	// 128 frames per block is BlockBound.
	for _, n := range []int{0, 1, 2, 125, 126, 127, 128, 200, 1000} {
		w := newConnWriter().open(1, req[:1])
		for range n {
			w.cont(1, false, nil)
		}
		w.cont(1, true, req[1:]).headers(3, true, []byte{0xbe})
		add(fmt.Sprintf("flood-%d", n), w)
		w = newConnWriter().open(1, nil)
		for range n {
			w.cont(1, false, nil)
		}
		add(fmt.Sprintf("flood-%d-eof", n), w)
	}
	// The same under bounds of the Reader's own setting.
	for _, bound := range []int{-1, 1, 2, 3} {
		for _, n := range []int{0, 1, 2, 3} {
			w := newConnWriter().open(1, req[:1])
			for range n {
				w.cont(1, false, nil)
			}
			w.cont(1, true, req[1:])
			out = append(out, diffCase{fmt.Sprintf("continuation/bound=%d/n=%d", bound, n), connConfig{maxFrames: bound}, w.bytes()})
		}
	}
	add("other-stream", newConnWriter().open(1, req[:2]).cont(3, true, req[2:]))
	add("stream-0", newConnWriter().open(1, req[:2]).cont(0, true, req[2:]))
	add("ping-between", newConnWriter().open(1, req[:2]).ping().cont(1, true, req[2:]))
	add("data-between", newConnWriter().open(1, req[:2]).data(1).cont(1, true, req[2:]))
	add("headers-between", newConnWriter().open(1, req[:2]).headers(3, true, req).cont(1, true, req[2:]))
	add("settings-between", newConnWriter().open(1, req[:2]).tableSize(100).cont(1, true, req[2:]))
	add("lone-continuation", newConnWriter().cont(1, true, req))
	add("continuation-after-block", newConnWriter().headers(1, true, req).cont(1, true, []byte{0x82}))
	add("eof-in-block", newConnWriter().open(1, req))
	add("eof-after-fragment", newConnWriter().open(1, req[:1]).cont(1, false, req[1:]))
	add("headers-stream-0", newConnWriter().headers(0, true, req))
	add("ping-then-block", newConnWriter().ping().headers(1, true, req).ping().headers(3, false, []byte{0xbe}))
	add("invalid-then-empty", newConnWriter().open(1, lit("A", "b")).cont(1, true, nil))
	add("invalid-then-more", newConnWriter().open(1, lit("A", "b")).cont(1, true, []byte{0x82}))
	add("truncated-field", newConnWriter().headers(1, true, []byte{0x00, 0x01, 'a'}))
	add("truncated-field-frames", newConnWriter().headers(1, true, []byte{0x00, 0x01}, []byte{'a'}))
	// Padding and priority on the HEADERS frame.
	w := newConnWriter()
	must(w.fr.WriteHeaders(h2Param(1, req[:3], 7)))
	w.cont(1, true, req[3:])
	add("padded-priority", w)
	// A block over the Reader's byte bound in few frames, under a list
	// size that lets x/net take it.
	big := lit("x", strings.Repeat("v", 5<<20))
	out = append(out, diffCase{"continuation/bytes-bound-1", connConfig{maxList: 64 << 20}, newConnWriter().headers(1, true, big).bytes()},
		diffCase{"continuation/bytes-bound-2", connConfig{maxList: 64 << 20}, newConnWriter().headers(1, true, chunk(big, 3<<20)...).bytes()})
	// A frame cut short.
	full := newConnWriter().headers(1, true, req).bytes()
	out = append(out, diffCase{"continuation/short-frame", connConfig{}, full[:len(full)-1]})
	return out
}

func listSizeCases(t *testing.T) []diffCase {
	rep := func(b byte, n int) []byte { return []byte(strings.Repeat(string([]byte{b}), n)) }
	blocks := map[string][]byte{
		"get-1": rep(0x82, 1), "get-2": rep(0x82, 2), "get-3": rep(0x82, 3), "get-100": rep(0x82, 100), "get-101": rep(0x82, 101),
		"get-250":              rep(0x82, 250),
		"trailer":              lit("trailer", "a,b,c"),
		"trailer-empty":        lit("trailer", ""),
		"trailer-commas":       lit("trailer", ",,,,"),
		"trailer-spaces":       lit("trailer", "grpc-status, grpc-message"),
		"trailer-long":         cat(lit("trailer", strings.Repeat("x,", 20)+"x"), rep(0x82, 3)),
		"trailer-split":        cat([]byte{0x82}, lit("trailer", "a,b"), []byte{0x82}, lit("trailer", "c"), []byte{0x82}),
		"trailer-indexed-name": cat(litIdx("trailer", "a,b"), []byte{0xbe, 0xbe}),
		"Trailer":              lit("Trailer", "a"),
		"big-value":            lit("x", strings.Repeat("v", 60)),
		"mixed":                cat([]byte{0x82, 0x84}, lit("x", "12345678"), lit("y", strings.Repeat("w", 40))),
	}
	// A field past three times the list size whose block then ends
	// inside a field: x/net reports the list truncated with its
	// connection error.
	blocks["over-then-cut"] = cat(litIdx("x", strings.Repeat("v", 16)), []byte{0x41})
	sizes := []uint32{0, 1, 16, 31, 32, 33, 41, 42, 43, 50, 83, 84, 85, 100, 126, 200, 1000, 1 << 31, 1<<31 - 1, 1<<31 + 1, 1<<32 - 1}
	var out []diffCase
	for name, b := range blocks {
		for _, maxList := range sizes {
			tag := fmt.Sprintf("list/%s/max=%d", name, maxList)
			out = append(out, blockVariants(tag, maxList, b)...)
			out = append(out, withFollowers(tag, maxList, b))
			// Fragments around twice the list size left.
			for _, cut := range []int{1, 2, 3, 50, 100, 101} {
				if cut < len(b) {
					out = append(out, diffCase{fmt.Sprintf("%s/cut=%d", tag, cut), connConfig{maxList: maxList},
						newConnWriter().headers(1, false, b[:cut], b[cut:], nil, []byte{0x82}).bytes()})
				}
			}
		}
	}
	return out
}

func stringOverListCases(t *testing.T) []diffCase {
	var out []diffCase
	for _, maxList := range []uint32{10, 40, 100} {
		n := int(maxList)
		long := strings.Repeat("a", n+1)
		w := newConnWriter()
		huffLong := w.encode("x-long", long) // Huffman: shorter on the wire than decoded
		blocks := map[string][]byte{
			"value":          lit("x", long),
			"value-at-limit": lit("x", long[:n]),
			"name":           lit(long, "v"),
			"indexed":        litIdx("x", long),
			"never":          litNever("x", long),
			"huffman":        huffLong,
			"after-field":    cat([]byte{0x82}, lit("x", long)),
			"then-fields":    cat(lit("x", long), []byte{0x82, 0x84}),
			"after-invalid":  cat(lit("A", "b"), lit("x", long)),
			"after-truncate": cat(lit("y", long[:n]), lit("x", long)),
		}
		for name, b := range blocks {
			tag := fmt.Sprintf("string/%s/max=%d", name, maxList)
			out = append(out, blockVariants(tag, maxList, b)...)
			out = append(out, withFollowers(tag, maxList, b))
		}
	}
	return out
}

func sizeUpdateCases(t *testing.T) []diffCase {
	var out []diffCase
	add := func(name string, w *connWriter) { out = append(out, diffCase{"size/" + name, connConfig{}, w.bytes()}) }
	blocks := map[string][]byte{
		"first":           {0x20, 0x82},
		"two-first":       {0x20, 0x3f, 0xe1, 0x1f, 0x82},
		"three-first":     {0x20, 0x20, 0x20, 0x82},
		"after-field":     {0x82, 0x20},
		"after-field-big": {0x82, 0x3f, 0xe1, 0x1f},
		"too-large":       {0x3f, 0xe2, 0x1f, 0x82},
		"int-bound":       {0x3f, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x82},
		"int-bound-index": {0xff, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00},
		"int-huge":        {0xff, 0xff, 0xff, 0xff, 0xff, 0x0f},
		"only-update":     {0x20},
		"two-nonzero":     {0x3f, 0xe1, 0x1f, 0x3f, 0xe1, 0x1f, 0x82},
		"update-to-32":    {0x3f, 0x01, 0x82},
	}
	for name, b := range blocks {
		// On an empty table, and after a block that indexed a field.
		add(name+"/empty", newConnWriter().headers(1, true, b).headers(3, true, []byte{0x82}))
		add(name+"/full", newConnWriter().headers(1, true, litIdx("a", "b")).headers(3, true, b).headers(5, true, []byte{0xbe}))
		add(name+"/split", newConnWriter().headers(1, true, litIdx("a", "b")).headers(3, true, chunk(b, 1)...).headers(5, true, []byte{0xbe}))
	}
	// SETTINGS_HEADER_TABLE_SIZE lowered: the next block must start with
	// a size update at most the new size.
	for _, v := range []uint32{0, 100, 4096, 8192} {
		for name, b := range map[string][]byte{
			"none": {0x82}, "to-0": {0x20, 0x82}, "to-100": {0x3f, 0x45, 0x82}, "to-4096": {0x3f, 0xe1, 0x1f, 0x82},
			"two": {0x20, 0x3f, 0x45, 0x82},
		} {
			add(fmt.Sprintf("settings-%d/%s", v, name), newConnWriter().headers(1, true, litIdx("a", "b")).tableSize(v).headers(3, true, b).headers(5, true, []byte{0xbe}))
		}
	}
	return out
}

// huffmanCases put invalid Huffman strings (RFC 7541 §5.2) where x/net's
// Framer decodes them and where it has stopped taking fields.
func huffmanCases(t *testing.T) []diffCase {
	bad := map[string][]byte{
		"eos":        {0x84, 0xff, 0xff, 0xff, 0xff},
		"long-pad":   {0x81, 0xff},
		"zero-pad":   {0x81, 0x18},
		"valid-huff": {0x81, 0x1f}, // "a" and 3 bits of padding
	}
	var out []diffCase
	for name, str := range bad {
		forms := map[string][]byte{
			"value":       cat([]byte{0x00, 0x01, 'x'}, str),
			"value-index": cat([]byte{0x40, 0x01, 'x'}, str),
			"value-never": cat([]byte{0x10, 0x01, 'x'}, str),
			"name":        cat([]byte{0x00}, str, []byte{0x01, 'v'}),
			"static-name": cat([]byte{0x0f, 0x10}, str), // content-type
		}
		for form, f := range forms {
			for _, maxList := range []uint32{0, 40} {
				tag := fmt.Sprintf("huffman/%s/%s/max=%d", name, form, maxList)
				out = append(out, blockVariants(tag+"/alone", maxList, cat([]byte{0x82}, f))...)
				out = append(out, blockVariants(tag+"/after-invalid", maxList, cat(lit("A", "b"), f))...)
				out = append(out, blockVariants(tag+"/after-truncation", maxList, cat(lit("big", strings.Repeat("v", 30)), f))...)
				out = append(out, withFollowers(tag, maxList, f))
			}
		}
	}
	return out
}
