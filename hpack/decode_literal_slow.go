package hpack

import (
	"errors"
	"math"

	"github.com/metapack/metapack/internal/huffdata"
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
		if nl > d.maxStringLen {
			if !d.mayEnterTable(indexing, nameMin) {
				// Neither the name nor the value is needed: skip both.
				return d.startSkip(nstart, nl, nhuff, true, indexing, off)
			}
			if err := d.stringOverLimit(off); err != nil {
				return 0, 0, err
			}
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
	if over {
		if !d.mayEnterTable(indexing, nameMin+minDecodedLen(vl, vhuff)) {
			return d.startSkip(vstart, vl, vhuff, false, indexing, off)
		}
		// The table needs the bytes, but the field is dropped already.
		if err := d.stringOverLimit(off); err != nil {
			return 0, 0, err
		}
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
		raw := p[nstart : nstart+nl : nstart+nl]
		name, err = d.decodeString(&d.nameBuf, nhuff, raw, true, maxLen, off)
		if tooLarge, err = checkTooLarge(err, nhuff, raw, off); err != nil {
			return 0, 0, err
		}
	}
	var value mdelem.Str
	if !tooLarge {
		key := sd.KeyUnknown
		if a := name.Atom(); a != nil {
			key = a.Key()
		}
		raw := p[vstart:end:end]
		value, err = d.decodeString(&d.valueBuf, vhuff, raw, d.internValue[key], maxLen, off)
		if tooLarge, err = checkTooLarge(err, vhuff, raw, off); err != nil {
			return 0, 0, err
		}
	}
	fsize := name.Len() + value.Len() + entryOverhead
	if tooLarge || name.Len() > d.maxStringLen || value.Len() > d.maxStringLen {
		d.stringOverLimit(off) // sawField is set: no error
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

// checkTooLarge sorts decodeString's err: a string that decodes to more
// than the cap is too large (its Huffman coding still checked to its end),
// any other error is returned.
func checkTooLarge(err error, huff bool, raw []byte, off int) (bool, error) {
	if err != ErrStringLength {
		return false, err
	}
	if huff {
		var c huffCheck
		if err := c.feed(raw); err != nil {
			return false, &DecodingError{Offset: off, Err: err}
		}
		if err := c.finish(); err != nil {
			return false, &DecodingError{Offset: off, Err: err}
		}
	}
	return true, nil
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
func (d *Decoder) startSkip(start, l int, huff, value, indexing bool, off int) (size, need int, err error) {
	if err := d.stringOverLimit(off); err != nil {
		return 0, 0, err
	}
	if indexing {
		d.table.evictTo(0)
	}
	d.skipLeft, d.skipValue, d.skipping, d.skipOff = l, value, true, off
	d.skipHuff, d.skipCheck = huff, huffCheck{}
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
		if d.skipHuff && k > 0 {
			// Skipped bytes are checked as they pass, as decoding
			// would, but kept nowhere.
			if err := d.skipCheck.feed(q[n : n+k]); err != nil {
				return n, 0, &DecodingError{Offset: d.skipOff, Err: err}
			}
		}
		d.skipLeft -= k
		n += k
		if d.skipLeft > 0 {
			return n, 0, nil
		}
		if d.skipHuff {
			if err := d.skipCheck.finish(); err != nil {
				return n, 0, &DecodingError{Offset: d.skipOff, Err: err}
			}
			d.skipHuff = false
		}
		if !d.skipValue {
			d.skipping = false
			return n, 0, nil
		}
		l, start, huff, needAt, err := d.measureString(q, n, off+n)
		if err != nil {
			return n, 0, err
		}
		if needAt > 0 {
			return n, needAt - n, nil
		}
		d.skipValue, d.skipLeft, n = false, l, start
		d.skipHuff, d.skipCheck = huff, huffCheck{}
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
// overLimit does. The field counts as the block's first first, which
// fails when a size update is due.
func (d *Decoder) stringOverLimit(off int) error {
	if !d.sawField {
		if err := d.fieldStart(off); err != nil {
			return err
		}
	}
	if d.limitErr == nil {
		d.limitErr = &LimitError{Err: ErrStringLength, Limit: d.maxStringLen, Offset: off}
	}
	d.fieldsLeft = sunkBudget
	return nil
}

// huffCheck checks Huffman-coded bytes fed to it in pieces, as decoding
// them would (RFC 7541 §5.2), without keeping their symbols.
type huffCheck struct {
	buf uint64 // unread bits, left-aligned
	nb  uint
}

// feed checks p's codes, keeping the bits of the last, unfinished one.
func (c *huffCheck) feed(p []byte) error {
	fast := &huffdata.HuffmanDecodeFast
	for _, b := range p {
		c.buf |= uint64(b) << (56 - c.nb)
		c.nb += 8
		for c.nb >= maxCodeBits { // a whole code is in buf
			e := fast[c.buf>>fastShift]
			if e&fastCountMask == 0 {
				if e = decodeLong(c.buf); e == 0 {
					return errHuffmanEOS
				}
			}
			n := uint(e) & fastUsedMask
			c.buf <<= n
			c.nb -= n
		}
	}
	return nil
}

// finish checks the codes and padding left once the string is whole.
func (c *huffCheck) finish() error {
	for c.nb > 0 {
		padded := c.buf | math.MaxUint64>>c.nb
		e := huffdata.HuffmanDecodeFast[padded>>fastShift]
		n := uint(e&fastLen1Mask) >> huffdata.HuffmanFastLen1Shift
		if e&fastCountMask == 0 {
			if e = decodeLong(padded); e == 0 {
				n = maxCodeBits
			} else {
				n = uint(e) & fastUsedMask
			}
		}
		if n > c.nb {
			if c.nb > 7 || c.buf != ^(math.MaxUint64>>c.nb) {
				return errHuffmanPadding
			}
			return nil
		}
		if n == maxCodeBits {
			return errHuffmanEOS
		}
		c.buf <<= n
		c.nb -= n
	}
	return nil
}
