package hpack

import (
	"errors"
	"github.com/metapack/metapack/internal/dyntable"
	"github.com/metapack/metapack/internal/hcode"
	"math"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// parse decodes the representations in p, which starts at block offset
// d.blockOff. When p ends inside a representation it stops at it, p[n],
// with need, the bytes from there it must have before it can be parsed.
func (d *Decoder) parse(dst *mdelem.Batch, p []byte) (n, need int, err error) {
	pos := 0
	if d.skipping {
		// A dropped field's strings run on from the last fragment.
		if pos, need, err = d.resumeSkip(p, d.blockOff); err != nil || need > 0 {
			d.blockOff += pos
			return pos, need, err
		}
	}
	for pos < len(p) {
		b := p[pos]
		// One-byte indexed fields, the most common, are handled here. fn or
		// dst is chosen here, in indexed and in literal: a shared method
		// measured 3.5% slower (grpc).
		if b > 0x80 && b < 0xff && !d.updateRequired {
			if e := d.indexedEntry(uint64(b & 0x7f)); e != nil {
				d.sawField = true
				if d.admit(int(e.Size)) {
					if d.fn != nil {
						d.fn(mdelem.Field{Name: e.Name, Value: e.Value})
					} else {
						dst.Append(mdelem.Field{Name: e.Name, Value: e.Value})
					}
				} else {
					d.overLimit(d.blockOff + pos)
				}
				pos++
				continue
			}
		}
		rep := p[pos:]
		off := d.blockOff + pos
		var size int
		switch {
		case b >= 0x80: // indexed field, 7-bit index
			size, need, err = d.indexed(dst, rep, off)
		case b >= 0x40 || b < 0x20: // a literal; it reads its kind from b
			size, need, err = d.literal(dst, rep, off)
		default: // dynamic table size update, 5-bit size
			size, need, err = d.sizeUpdate(rep, off)
		}
		if err != nil || need > 0 {
			if err == errSkipping {
				// The field was dropped: skip its strings from size on.
				pos += size
				var n int
				n, need, err = d.resumeSkip(p[pos:], d.blockOff+pos)
				if pos += n; err != nil || need > 0 {
					d.blockOff += pos
					return pos, need, err
				}
				continue
			}
			if err != nil || need > 0 {
				d.blockOff += pos
				return pos, need, err
			}
		}
		pos += size
	}
	d.blockOff += pos
	return pos, 0, nil
}

// maxInt is the largest integer a representation may carry: 2^32-1. Index,
// length and size values beyond it are errors, never overflow.
const maxInt = 1<<32 - 1

// intErr turns a failed integer read into parse results.
func intErr(res hcode.IntResult, p []byte, off int) (need int, err error) {
	if res == hcode.IntTruncated {
		return len(p) + 1, nil
	}
	return 0, &DecodingError{Offset: off, Err: ErrIntegerOverflow}
}

// fieldStart runs the checks due before the first field of a block.
func (d *Decoder) fieldStart(off int) error {
	if d.updateRequired {
		return &DecodingError{Offset: off, Err: ErrSizeUpdateMissing}
	}
	d.sawField = true
	return nil
}

// staticEntries holds the static table's entries in the dynamic table's
// form, so that indexedEntry returns either table's entries alike.
var staticEntries = func() (es [tier.TableLen + 1]dyntable.Entry) {
	for i := 1; i <= tier.TableLen; i++ {
		e, _ := tier.EntryAt(i)
		es[i] = dyntable.Entry{Name: mdelem.StrOf(e.Name), Value: mdelem.StrOf(e.Value), Size: e.Size}
	}
	return es
}()

// indexedEntry returns the entry at HPACK index idx, static or dynamic,
// or nil when idx is in neither table.
func (d *Decoder) indexedEntry(idx uint64) *dyntable.Entry {
	if idx-1 < tier.TableLen { // 1 to StaticTableLen; 0 wraps around
		return &staticEntries[idx]
	}
	if i := idx - tier.TableLen - 1; i < uint64(d.table.Len()) {
		return d.table.At(int(i))
	}
	return nil
}

// indexed decodes an indexed field representation (RFC 7541 §6.1).
func (d *Decoder) indexed(dst *mdelem.Batch, p []byte, off int) (size, need int, err error) {
	idx, size := uint64(p[0]&0x7f), 1
	if idx == 0x7f {
		var res hcode.IntResult
		if idx, size, res = hcode.ReadInt(p, 7, maxInt); res != hcode.IntOK {
			need, err = intErr(res, p, off)
			return 0, need, err
		}
	}
	if !d.sawField {
		if err := d.fieldStart(off); err != nil {
			return 0, 0, err
		}
	}
	e := d.indexedEntry(idx)
	if e == nil {
		return 0, 0, d.invalidIndex(idx, off)
	}
	if d.admit(int(e.Size)) {
		if d.fn != nil {
			d.fn(mdelem.Field{Name: e.Name, Value: e.Value})
		} else {
			dst.Append(mdelem.Field{Name: e.Name, Value: e.Value})
		}
	} else {
		d.overLimit(off)
	}
	return size, 0, nil
}

// literal decodes a literal field representation (RFC 7541 §6.2). It
// measures the whole representation before it changes any state, so that a
// truncated one is parsed again from its start once its bytes are there.
func (d *Decoder) literal(dst *mdelem.Batch, p []byte, off int) (size, need int, err error) {
	b := p[0]
	indexing := b >= 0x40
	prefix, mask := uint(4), uint64(0x0f)
	if indexing {
		prefix, mask = 6, 0x3f
	}
	idx, pos := uint64(b)&mask, 1
	if idx == mask {
		if len(p) > 1 && p[1] < 0x80 { // one continuation byte
			idx, pos = mask+uint64(p[1]), 2
		} else {
			var res hcode.IntResult
			if idx, pos, res = hcode.ReadInt(p, prefix, maxInt); res != hcode.IntOK {
				need, err = intErr(res, p, off)
				return 0, need, err
			}
		}
	}
	var name mdelem.Str
	switch {
	case idx == 0:
		if name, pos, need, err = d.newName(p, pos, off); err != nil || need > 0 {
			return d.stringErr(p, name, off, need, err)
		}
	case idx <= tier.TableLen:
		name = staticEntries[idx].Name
	case idx-tier.TableLen-1 < uint64(d.table.Len()):
		name = d.table.At(int(idx - tier.TableLen - 1)).Name
	default:
		return 0, 0, d.invalidIndex(idx, off)
	}
	valueRaw, end, valueHuff, ok := hcode.ReadShortString(p, pos, 7, d.maxStringLen)
	if !ok {
		if valueRaw, end, valueHuff, need, err = d.readLongString(p, pos, off); err != nil || need > 0 {
			return d.stringErr(p, name, off, need, err)
		}
	}
	if !d.sawField {
		if err := d.fieldStart(off); err != nil {
			return 0, 0, err
		}
	}
	key := staticdata.KeyUnknown
	if a := name.Atom(); a != nil {
		key = a.Key()
	}
	// Values not interned are decoded here, as decodeString would.
	var value mdelem.Str
	switch internIt := d.internValue[key]; {
	case !valueHuff && !internIt:
		value = mdelem.StrOf(mdelem.Borrowed(valueRaw)) // measured within the limit
	case valueHuff && !internIt:
		if d.valueBuf, err = appendHuffmanDecode(d.valueBuf[:0], valueRaw, d.maxStringLen); err != nil {
			return d.stringErr(p, name, off, 0, huffmanErr(err, off))
		}
		value = mdelem.StrOf(mdelem.Borrowed(d.valueBuf))
	default:
		if value, err = d.decodeString(&d.valueBuf, valueHuff, valueRaw, internIt, d.maxStringLen, off); err != nil {
			return d.stringErr(p, name, off, 0, err)
		}
	}
	fsize := name.Len() + value.Len() + entryOverhead
	// Emit before adding, which may overwrite ring bytes.
	kept := false // value is an atom or owned bytes, for the table to keep
	if d.admit(fsize) {
		f := mdelem.Field{Name: name, Value: value}.WithSensitive(b&0xf0 == 0x10)
		if d.fn == nil {
			dst.Append(f)
		} else {
			if value.Atom() == nil {
				value = d.ownedCopy(value.UnsafeBytes(), indexing)
				f.Value = value
			}
			kept = true
			d.fn(f)
		}
	} else {
		d.overLimit(off)
	}
	if indexing {
		// fsize fits a uint32 (see maxStringLimit).
		d.table.Add(name, value, uint32(fsize), kept)
	}
	return end, 0, nil
}

// newName reads the new name of a literal field at p[pos], once the value
// after it is whole too, and returns it with the position after it.
func (d *Decoder) newName(p []byte, pos, off int) (name mdelem.Str, end, need int, err error) {
	raw, end, huff, ok := hcode.ReadShortString(p, pos, 7, d.maxStringLen)
	if !ok {
		if raw, end, huff, need, err = d.readLongString(p, pos, off); err != nil || need > 0 {
			return mdelem.Str{}, 0, need, err
		}
	}
	if _, _, _, ok := hcode.ReadShortString(p, end, 7, d.maxStringLen); !ok {
		if _, _, _, need, err = d.readLongString(p, end, off); err != nil || need > 0 {
			return mdelem.Str{}, 0, need, err
		}
	}
	if !d.sawField {
		if err := d.fieldStart(off); err != nil {
			return mdelem.Str{}, 0, 0, err
		}
	}
	name, err = d.decodeString(&d.nameBuf, huff, raw, true, d.maxStringLen, off)
	return name, end, 0, err
}

// stringErr returns literal's results for err, or for need bytes more; a
// string over the limit goes to dropLiteral.
func (d *Decoder) stringErr(p []byte, name mdelem.Str, off, need int, err error) (int, int, error) {
	if err == errStringOver || err == ErrStringLength {
		return d.dropLiteral(p, name, off)
	}
	return 0, need, err
}

// invalidIndex is the error for a reference to index idx, in neither
// table.
func (d *Decoder) invalidIndex(idx uint64, off int) error {
	return &DecodingError{Offset: off, Err: ErrInvalidIndex, Index: idx, Limit: tier.TableLen + d.table.Len()}
}

// readLongString reads the string literal at p[pos:] when
// hcode.ReadShortString does not, or says how many bytes it needs. A length
// over the limit fails with errStringOver before the bytes are awaited.
func (d *Decoder) readLongString(p []byte, pos, off int) (raw []byte, end int, huff bool, need int, err error) {
	start, end, huff, res := hcode.ReadString(p[pos:], 7, maxInt, d.maxStringLen)
	switch res {
	case hcode.StrTruncated:
		return nil, 0, false, pos + end, nil
	case hcode.StrOverflow:
		return nil, 0, false, 0, &DecodingError{Offset: off, Err: ErrIntegerOverflow}
	case hcode.StrTooLong:
		return nil, 0, false, 0, errStringOver
	}
	return p[pos+start : pos+end : pos+end], pos + end, huff, 0, nil
}

// decodeString decodes a string literal (into *buf when Huffman-coded) and,
// when internIt is set, resolves it to an atom if it has one. Otherwise it
// returns the bytes, borrowed. Over maxLen it fails with ErrStringLength,
// unwrapped.
func (d *Decoder) decodeString(buf *[]byte, huff bool, raw []byte, internIt bool, maxLen, off int) (mdelem.Str, error) {
	b := raw
	if huff {
		// Only names and interned values are cached: others rarely repeat.
		if internIt {
			if s := d.cache.lookup(raw); s != nil {
				if a := s.atom; a != nil {
					if tier.Len(a) <= maxLen {
						return mdelem.StrOf(a), nil
					}
				} else if int(s.dn) <= maxLen {
					*buf = append((*buf)[:0], s.dec[:s.dn]...)
					return mdelem.StrOf(mdelem.Borrowed(*buf)), nil
				}
			}
		}
		var err error
		*buf, err = appendHuffmanDecode((*buf)[:0], raw, maxLen)
		if err != nil {
			return mdelem.Str{}, huffmanErr(err, off)
		}
		b = *buf
	} else if len(raw) > maxLen {
		return mdelem.Str{}, ErrStringLength
	}
	if !internIt {
		return mdelem.StrOf(mdelem.Borrowed(b)), nil
	}
	// intern.Make(d.interner, b) does the same in one call, but measured
	// 1.0% more instructions on raw-data-plain (47.25M vs 46.76M per pass).
	var a *staticdata.Atom
	if tier.MayBeAtom(b) { // most names that are not atoms stop here, unhashed
		a = tier.Lookup(b)
	}
	if a == nil && d.interner != nil {
		if h, ok := intern.Make(d.interner, b); ok {
			a = h.Atom()
		}
	}
	if a == nil {
		if huff {
			d.filledCache().putBytes(raw, b)
		}
		return mdelem.StrOf(mdelem.Borrowed(b)), nil
	}
	if huff {
		d.filledCache().put(raw, a)
	}
	return mdelem.StrOf(a), nil
}

// huffmanErr wraps a Huffman error other than ErrStringLength in a
// *DecodingError at off.
func huffmanErr(err error, off int) error {
	if err == ErrStringLength {
		return err
	}
	return &DecodingError{Offset: off, Err: err}
}

// admit counts a field of RFC 9113 size size against the limits and
// reports whether it is within them; if not, the caller calls overLimit.
func (d *Decoder) admit(size int) bool {
	d.fieldsLeft--
	d.sizeLeft -= size
	return d.fieldsLeft|d.sizeLeft >= 0
}

// sunkBudget is the field budget once a limit is gone over.
const sunkBudget = math.MinInt / 2

// overLimit records the first limit a block goes over.
//
//go:noinline
func (d *Decoder) overLimit(off int) {
	switch {
	case d.limitErr != nil:
	case d.fieldsLeft < 0:
		d.limitErr = &DecodingError{Err: ErrFieldCount, Limit: d.maxFields, Offset: off}
	default:
		d.limitErr = &DecodingError{Err: ErrHeaderListSize, Limit: d.maxListSize, Offset: off}
	}
	d.fieldsLeft = sunkBudget
}

func (d *Decoder) sizeUpdate(p []byte, off int) (size, need int, err error) {
	v, size, res := hcode.ReadInt(p, 5, maxInt)
	if res != hcode.IntOK {
		need, err = intErr(res, p, off)
		return 0, need, err
	}
	switch {
	case d.sawField:
		return 0, 0, &DecodingError{Offset: off, Err: ErrSizeUpdateNotFirst}
	case d.updates == 2:
		return 0, 0, &DecodingError{Offset: off, Err: ErrTooManySizeUpdates}
	case v > uint64(d.settingsMax):
		return 0, 0, &DecodingError{Offset: off, Err: ErrSizeUpdateTooLarge}
	case d.updateRequired && v > uint64(d.lowestSettings):
		return 0, 0, &DecodingError{Offset: off, Err: ErrSizeUpdateNotLowest}
	}
	d.updates++
	d.setTableMax(uint32(v))
	return size, 0, nil
}

// A string over the limit drops its field; its bytes are read only when
// the dynamic table needs them, else skipped as they arrive.

// errStringOver tells literal that a string is over the limit.
var errStringOver = errors.New("hpack: string over the limit")

// errSkipping tells parse that the returned position starts strings to skip.
var errSkipping = errors.New("hpack: skipping a string")

// dropLiteral drops the literal at p, whose string is over the limit, and
// decodes its strings only if the dynamic table needs them.
func (d *Decoder) dropLiteral(p []byte, name mdelem.Str, off int) (size, need int, err error) {
	indexing := p[0] >= 0x40
	prefix := uint(4)
	if indexing {
		prefix = 6
	}
	idx, pos, _ := hcode.ReadInt(p, prefix, maxInt) // literal read it
	newName := idx == 0
	var nl, nstart int
	var nhuff bool
	nameMin := name.Len() // the fewest bytes the name decodes to
	if newName {
		if nl, nstart, nhuff, need, err = d.measureString(p, pos, off); err != nil || need > 0 {
			return 0, need, err
		}
		nameMin = minDecodedLen(nl, nhuff)
		if nl > d.maxStringLen && !d.mayEnterTable(indexing, nameMin) {
			return d.startSkip(nstart, nl, nhuff, true, indexing, off) // the value too
		}
		pos = nstart + nl
	}
	if err := d.stringOverLimit(off); err != nil {
		return 0, 0, err
	}
	if pos > len(p) {
		return 0, pos, nil
	}
	vl, vstart, vhuff, need, err := d.measureString(p, pos, off)
	if err != nil || need > 0 {
		return 0, need, err
	}
	if !d.mayEnterTable(indexing, nameMin+minDecodedLen(vl, vhuff)) {
		if newName {
			if err := checkHuffman(nhuff, p[nstart:nstart+nl], off); err != nil {
				return 0, 0, err
			}
		}
		return d.startSkip(vstart, vl, vhuff, false, indexing, off)
	}
	end := vstart + vl
	if end > len(p) {
		return 0, end, nil
	}
	// Decode up to what a table entry may hold.
	maxLen := max(d.maxStringLen, dyntable.SizeInt(d.table.Max()))
	tooLarge := false
	if newName {
		raw := p[nstart : nstart+nl : nstart+nl]
		name, err = d.decodeString(&d.nameBuf, nhuff, raw, true, maxLen, off)
		if tooLarge, err = checkTooLarge(err, nhuff, raw, off); err != nil {
			return 0, 0, err
		}
	}
	raw := p[vstart:end:end]
	if tooLarge {
		err = checkHuffman(vhuff, raw, off)
	} else {
		key := staticdata.KeyUnknown
		if a := name.Atom(); a != nil {
			key = a.Key()
		}
		var value mdelem.Str
		value, err = d.decodeString(&d.valueBuf, vhuff, raw, d.internValue[key], maxLen, off)
		if tooLarge, err = checkTooLarge(err, vhuff, raw, off); err == nil && !tooLarge {
			d.table.Add(name, value, entrySize(name.Len()+value.Len()+entryOverhead), false)
		}
	}
	if err != nil {
		return 0, 0, err
	}
	if tooLarge {
		d.table.EvictTo(0)
	}
	return end, 0, nil
}

// checkHuffman checks the coding of a whole string that is not decoded.
func checkHuffman(huff bool, raw []byte, off int) error {
	if huff {
		var c hcode.Checker
		if err := c.Feed(raw); err != nil {
			return &DecodingError{Offset: off, Err: huffmanError(err)}
		}
		if err := c.Finish(); err != nil {
			return &DecodingError{Offset: off, Err: huffmanError(err)}
		}
	}
	return nil
}

// checkTooLarge reports whether decodeString's err is ErrStringLength,
// checking the coding to its end, or returns err.
func checkTooLarge(err error, huff bool, raw []byte, off int) (bool, error) {
	if err != ErrStringLength {
		return false, err
	}
	return true, checkHuffman(huff, raw, off)
}

// entrySize returns a field's size as an entry's, saturating at 2^32-1.
func entrySize(fsize int) uint32 {
	if uint64(fsize) > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(fsize)
}

// mayEnterTable reports whether a field to be indexed, whose strings decode
// to at least n bytes, may fit the dynamic table.
func (d *Decoder) mayEnterTable(indexing bool, n int) bool {
	return indexing && uint64(n)+entryOverhead <= uint64(d.table.Max())
}

// minDecodedLen returns the fewest bytes a string of l raw bytes decodes
// to: l, or for Huffman data one byte per 30 bits, the longest code.
func minDecodedLen(l int, huff bool) int {
	if huff {
		return l / hcode.MaxCodeBits * 8
	}
	return l
}

// startSkip drops the field whose string of l bytes starts at p[start],
// and the value after it too when value is set, and returns errSkipping for
// parse to skip them. A field to be indexed empties the table.
func (d *Decoder) startSkip(start, l int, huff, value, indexing bool, off int) (size, need int, err error) {
	if err := d.stringOverLimit(off); err != nil {
		return 0, 0, err
	}
	if indexing {
		d.table.EvictTo(0)
	}
	d.skipLeft, d.skipValue, d.skipping, d.skipOff = l, value, true, off
	d.skipHuff, d.skipCheck = huff, hcode.Checker{}
	return start, 0, errSkipping
}

// resumeSkip skips what is left of the strings startSkip arranged to skip,
// from the start of q, at block offset off. It returns how many bytes it
// consumed, and how many more it needs when q ends inside a length prefix.
func (d *Decoder) resumeSkip(q []byte, off int) (n, need int, err error) {
	for {
		k := min(d.skipLeft, len(q)-n)
		if d.skipHuff && k > 0 {
			if err := d.skipCheck.Feed(q[n : n+k]); err != nil {
				return n, 0, &DecodingError{Offset: d.skipOff, Err: huffmanError(err)}
			}
		}
		d.skipLeft -= k
		n += k
		if d.skipLeft > 0 {
			return n, 0, nil
		}
		if d.skipHuff {
			if err := d.skipCheck.Finish(); err != nil {
				return n, 0, &DecodingError{Offset: d.skipOff, Err: huffmanError(err)}
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
		d.skipHuff, d.skipCheck = huff, hcode.Checker{}
	}
}

// measureString reads the length prefix of the string literal at p[pos:],
// or says how many bytes of p the prefix needs.
func (d *Decoder) measureString(p []byte, pos, off int) (l, start int, huff bool, need int, err error) {
	s, e, huff, res := hcode.ReadString(p[pos:], 7, maxInt, math.MaxInt)
	switch {
	case res == hcode.StrOverflow:
		return 0, 0, false, 0, &DecodingError{Offset: off, Err: ErrIntegerOverflow}
	case s == 0: // p ends inside the length
		return 0, 0, false, len(p) + 1, nil
	}
	return e - s, pos + s, huff, 0, nil
}

// stringOverLimit records a string over the limit as overLimit does, and
// fails where a size update is due.
func (d *Decoder) stringOverLimit(off int) error {
	if !d.sawField {
		if err := d.fieldStart(off); err != nil {
			return err
		}
	}
	if d.limitErr == nil {
		d.limitErr = &DecodingError{Err: ErrStringLength, Limit: d.maxStringLen, Offset: off}
	}
	d.fieldsLeft = sunkBudget
	return nil
}
