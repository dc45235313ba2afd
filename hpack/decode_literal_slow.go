package hpack

import (
	"errors"
	"math"

	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/mdelem"
	sd "github.com/metapack/metapack/staticdata"
)

// A string over the string limit is a stream error, not a connection
// error: the field is dropped with a *LimitError, the block goes on, and
// the dynamic table stays in sync with the peer's. The string's bytes are
// read only when the table needs them: when the field is to be indexed and
// its entry may fit the table. Otherwise they are skipped as they arrive,
// never buffered, and an entry too large for the table empties it, as
// adding it would (RFC 7541 §4.4).

// errStringOver tells literal that a string is over the limit, and
// literalSlow must take the representation.
var errStringOver = errors.New("hpack: string over the limit")

// errSkipping tells parse that literalSlow dropped a field whose strings
// are skipped from the returned position on (see resumeSkip).
var errSkipping = errors.New("hpack: skipping a string")

// literalSlow decodes a literal field representation as literal does,
// when one of its strings is over the string limit, or decodes to more
// than it: it drops the field with a *LimitError, and either decodes its
// strings for the dynamic table, or skips them.
func (d *Decoder) literalSlow(dst *mdelem.Batch, p []byte, off int) (size, need int, err error) {
	b := p[0]
	indexing := b >= 0x40
	prefix := uint(4)
	if indexing {
		prefix = 6
	}
	idx, pos, res := readInt(p, prefix)
	if res != intOK {
		need, err = intErr(res, p, off)
		return 0, need, err
	}
	var name mdelem.Str
	var nl, nstart int
	var nhuff bool
	var nameMin int // the fewest bytes the name decodes to
	switch {
	case idx == 0:
		if nl, nstart, nhuff, need, err = d.measureString(p, pos, off); err != nil || need > 0 {
			return 0, need, err
		}
		nameMin = minDecodedLen(nl, nhuff)
		if nl > d.maxStringLen && !d.mayEnterTable(indexing, nameMin) {
			// Neither the name nor the value is needed: skip both.
			return d.startSkip(nstart, nl, true, indexing, off)
		}
		if pos = nstart + nl; pos > len(p) {
			return 0, pos, nil
		}
	case idx <= tier.TableLen:
		name = staticEntries[idx].name
		nameMin = name.Len()
	case idx-tier.TableLen-1 < uint64(d.table.len()):
		name = d.table.at(int(idx - tier.TableLen - 1)).name
		nameMin = name.Len()
	default:
		return 0, 0, &InvalidIndexError{Offset: off, Index: idx, TableLen: tier.TableLen + d.table.len()}
	}
	vl, vstart, vhuff, need, err := d.measureString(p, pos, off)
	if err != nil || need > 0 {
		return 0, need, err
	}
	over := vl > d.maxStringLen || idx == 0 && nl > d.maxStringLen
	if over && !d.mayEnterTable(indexing, nameMin+minDecodedLen(vl, vhuff)) {
		return d.startSkip(vstart, vl, false, indexing, off)
	}
	end := vstart + vl
	if end > len(p) {
		return 0, end, nil
	}
	if !d.sawField {
		if err := d.fieldStart(off); err != nil {
			return 0, 0, err
		}
	}
	// Decode with a cap that lets through what an entry of the table may
	// hold; a string longer than that makes the entry too large.
	maxLen := d.maxStringLen
	if indexing {
		maxLen = max(maxLen, sizeInt(d.table.max))
	}
	tooLarge := false
	if idx == 0 {
		name, err = d.decodeString(&d.nameBuf, nhuff, p[nstart:nstart+nl:nstart+nl], true, maxLen, off)
		tooLarge = err == ErrStringLength
		if err != nil && !tooLarge {
			return 0, 0, err
		}
	}
	var value mdelem.Str
	if !tooLarge {
		key := sd.KeyUnknown
		if a := name.Atom(); a != nil {
			key = a.Key()
		}
		value, err = d.decodeString(&d.valueBuf, vhuff, p[vstart:end:end], d.internValue[key], maxLen, off)
		tooLarge = err == ErrStringLength
		if err != nil && !tooLarge {
			return 0, 0, err
		}
	}
	fsize := name.Len() + value.Len() + entryOverhead
	if tooLarge || name.Len() > d.maxStringLen || value.Len() > d.maxStringLen {
		d.stringOverLimit(off)
	} else if d.admit(fsize) {
		if d.fn != nil {
			d.fn(mdelem.Field{Name: name, Value: value}.WithSensitive(b&0xf0 == 0x10))
		} else {
			dst.Append(mdelem.Field{Name: name, Value: value}.WithSensitive(b&0xf0 == 0x10))
		}
	} else {
		d.overLimit(off)
	}
	if indexing {
		if tooLarge {
			d.table.evictTo(0)
		} else {
			d.table.add(name, value, entrySize(fsize))
		}
	}
	return end, 0, nil
}

// entrySize returns a field's size as an entry's, saturating at 2^32-1: a
// field that large needs a header block of 4 GiB, and is larger than any
// table but one of the largest size.
func entrySize(fsize int) uint32 {
	if uint64(fsize) > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(fsize)
}

// mayEnterTable reports whether a field whose strings decode to at least
// n bytes may be added to the dynamic table: it is to be indexed, and its
// entry may fit.
func (d *Decoder) mayEnterTable(indexing bool, n int) bool {
	return indexing && uint64(n)+entryOverhead <= uint64(d.table.max)
}

// minDecodedLen returns the fewest bytes a string of l raw bytes decodes
// to: l, or for Huffman data one byte per 30 bits, the longest code.
func minDecodedLen(l int, huff bool) int {
	if huff {
		return l / maxCodeBits * 8
	}
	return l
}

// startSkip drops the field whose string of l bytes starts at p[start],
// over the limit and not needed by the table, and arranges for its bytes,
// and with value those of the value string after it, to be skipped: it
// returns errSkipping with start, where parse goes on with resumeSkip. A
// field that was to be indexed empties the table: its entry is larger
// than the table.
func (d *Decoder) startSkip(start, l int, value, indexing bool, off int) (size, need int, err error) {
	if !d.sawField {
		if err := d.fieldStart(off); err != nil {
			return 0, 0, err
		}
	}
	d.stringOverLimit(off)
	if indexing {
		d.table.evictTo(0)
	}
	d.skipLeft, d.skipValue, d.skipping = l, value, true
	return start, 0, errSkipping
}

// resumeSkip skips from the start of q what is left of the strings
// startSkip arranged to skip: the rest of one string and, when a value
// follows, its length prefix and bytes. It returns how many bytes it
// consumed and, when q ends inside the value's prefix, how many bytes from
// there it needs. off is q's offset in the block.
func (d *Decoder) resumeSkip(q []byte, off int) (n, need int, err error) {
	for {
		k := min(d.skipLeft, len(q)-n)
		d.skipLeft -= k
		n += k
		if d.skipLeft > 0 || !d.skipValue {
			d.skipping = d.skipLeft > 0
			return n, 0, nil
		}
		l, start, _, needAt, err := d.measureString(q, n, off+n)
		if err != nil {
			return n, 0, err
		}
		if needAt > 0 {
			return n, needAt - n, nil
		}
		d.skipValue, d.skipLeft, n = false, l, start
	}
}

// measureString reads the length prefix of the string literal at p[pos:]
// and returns the string's length, where its bytes start and its Huffman
// flag, without checking that they are present, or how many bytes of p
// (from its start) the prefix needs (need).
func (d *Decoder) measureString(p []byte, pos, off int) (l, start int, huff bool, need int, err error) {
	if pos >= len(p) {
		return 0, 0, false, pos + 1, nil
	}
	v, n, res := readInt(p[pos:], 7)
	switch res {
	case intTruncated:
		return 0, 0, false, len(p) + 1, nil
	case intOverflow:
		return 0, 0, false, 0, &DecodingError{Offset: off, Err: ErrIntegerOverflow}
	}
	// v is at most 2^32-1 (readInt's bound); on 32-bit systems, a length
	// past an int is over any limit too.
	return sizeInt(uint32(v)), pos + n, p[pos]&0x80 != 0, 0, nil
}

// stringOverLimit records a string over the limit as the block's limit
// error, if it is the first, and drops the rest of the block's fields, as
// overLimit does.
func (d *Decoder) stringOverLimit(off int) {
	if d.limitErr == nil {
		d.limitErr = &LimitError{Err: ErrStringLength, Limit: d.maxStringLen, Offset: off}
	}
	d.fieldsLeft = sunkBudget
}
