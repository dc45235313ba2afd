package qpack

import (
	"github.com/metapack/metapack/internal/dyntable"
	"github.com/metapack/metapack/internal/hcode"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/mdelem"
)

// Decode decodes the field section of stream streamID (a whole HEADERS
// frame payload, RFC 9204 §4.5), appending its fields to dst; a nil dst
// drops them. Fields of the N bit (never indexed) come back marked
// Sensitive.
//
// It returns ErrBlocked when the section needs inserts not yet received:
// keep section and call Decode again with it once AppendUnblocked lists
// the stream (or CancelStream if you abandon it). A stream error
// (IsStreamError) leaves the fields before the limit in dst. Any other
// error is a connection error, with ErrCodeDecompressionFailed.
func (d *Decoder) Decode(dst *mdelem.Batch, streamID uint64, section []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err != nil {
		return d.poisoned()
	}
	if !d.made {
		d.ready()
	}
	err := d.decode(dst, streamID, section)
	if err != nil && err != ErrBlocked && !IsStreamError(err) {
		d.err = err
	}
	return err
}

// section is the state of one field section being decoded.
type section struct {
	stream         uint64
	required, base uint64
	maxRef         uint64 // 1 + the largest absolute index referred to
	fieldsLeft     int
	sizeLeft       int
	dst            *mdelem.Batch
	limitErr       error
}

func (d *Decoder) decode(dst *mdelem.Batch, streamID uint64, p []byte) error {
	s := section{stream: streamID, fieldsLeft: d.maxFields, sizeLeft: d.maxSectionSize, dst: dst}
	// Encoded Required Insert Count, 8-bit prefix (§4.5.1.1).
	enc, pos, res := hcode.ReadInt(p, 8, hcode.MaxInt62)
	if res != hcode.IntOK {
		return d.sectionIntError(&s, res, 0)
	}
	required, ok := d.requiredInserts(enc)
	for _, w := range d.woken {
		if w.stream == streamID && w.enc == enc {
			required, ok = w.required, true
		}
	}
	if !ok {
		return d.sectionError(&s, ErrRequiredInserts, 0, enc)
	}
	if pos >= len(p) {
		return d.sectionError(&s, ErrTruncated, int64(pos), 0)
	}
	// Base: sign bit and Delta Base, 7-bit prefix (§4.5.1.2).
	sign := p[pos]&0x80 != 0
	delta, n, res := hcode.ReadInt(p[pos:], 7, hcode.MaxInt62)
	if res != hcode.IntOK {
		return d.sectionIntError(&s, res, pos)
	}
	if sign {
		if delta >= required {
			return d.sectionError(&s, ErrBase, int64(pos), delta)
		}
		s.base = required - delta - 1
	} else {
		if delta > hcode.MaxInt62-required {
			return d.sectionError(&s, ErrIntegerOverflow, int64(pos), delta)
		}
		s.base = required + delta
	}
	pos += n
	if required > d.inserts {
		return d.block(streamID, enc, required)
	}
	s.required = required
	for pos < len(p) && s.limitErr == nil {
		n, err := d.fieldLine(&s, p, pos)
		if err != nil {
			return err
		}
		pos = n
	}
	if s.limitErr == nil && s.maxRef != required {
		// A Required Insert Count above what the references need (RFC 9204
		// §2.2.1 lets a decoder reject it, as the package doc says: a
		// correct encoder never sends it).
		return d.sectionError(&s, ErrRequiredInserts, 0, required)
	}
	d.forget(streamID)
	if required > 0 {
		d.out = hcode.AppendInt(d.out, 7, 0x80, min(streamID, hcode.MaxInt62))
		d.known = max(d.known, required)
	}
	return s.limitErr
}

// requiredInserts decodes an Encoded Required Insert Count (RFC 9204
// §4.5.1.1), and reports false for a value no encoder could send.
func (d *Decoder) requiredInserts(enc uint64) (uint64, bool) {
	if enc == 0 {
		return 0, true
	}
	fullRange := 2 * d.maxEntries
	if enc > fullRange {
		return 0, false
	}
	maxValue := d.inserts + d.maxEntries
	maxWrapped := maxValue / fullRange * fullRange
	ric := maxWrapped + enc - 1
	if ric > maxValue {
		if ric <= fullRange {
			return 0, false
		}
		ric -= fullRange
	}
	return ric, ric != 0
}

// block records a blocked section, or fails when too many are.
func (d *Decoder) block(streamID, enc, required uint64) error {
	for i := range d.blocked {
		if d.blocked[i].stream == streamID {
			d.blocked[i].enc, d.blocked[i].required = enc, required
			return ErrBlocked
		}
	}
	if uint64(len(d.blocked)) >= d.maxBlocked {
		return &Error{Code: ErrCodeDecompressionFailed, StreamID: streamID, Err: ErrTooManyBlocked, Limit: d.maxBlocked}
	}
	d.blocked = append(d.blocked, blockedSection{stream: streamID, enc: enc, required: required})
	return ErrBlocked
}

func (d *Decoder) sectionError(s *section, reason error, off int64, index uint64) error {
	return &Error{Code: ErrCodeDecompressionFailed, Offset: off, StreamID: s.stream, Err: reason, Limit: index}
}

func (d *Decoder) sectionIntError(s *section, res hcode.IntResult, off int) error {
	if res == hcode.IntTruncated {
		return d.sectionError(s, ErrTruncated, int64(off), 0)
	}
	return d.sectionError(s, ErrIntegerOverflow, int64(off), 0)
}

// dynamic returns the entry of absolute index abs for the section, or an
// error when it is at or past the Required Insert Count or evicted.
func (d *Decoder) dynamic(s *section, abs uint64, off int) (*dyntable.Entry, error) {
	if abs >= s.required {
		return nil, d.sectionError(s, ErrInvalidIndex, int64(off), abs)
	}
	e := d.entry(abs)
	if e == nil {
		return nil, d.sectionError(s, ErrInvalidIndex, int64(off), abs)
	}
	s.maxRef = max(s.maxRef, abs+1)
	return e, nil
}

// staticEntries holds QPACK's static table as field strings.
var staticEntries = func() (es [tier.QPACKTableLen]mdelem.Field) {
	for i := range es {
		e, _ := tier.QPACKEntryAt(i)
		es[i] = mdelem.Field{Name: mdelem.StrOf(e.Name), Value: mdelem.StrOf(e.Value)}
	}
	return es
}()

// fieldLine decodes the field line at p[pos] (RFC 9204 §4.5.2-6) and
// returns the position after it.
func (d *Decoder) fieldLine(s *section, p []byte, pos int) (int, error) {
	b := p[pos]
	switch {
	case b&0x80 != 0: // Indexed Field Line, 6-bit index, T bit
		idx, n, res := hcode.ReadInt(p[pos:], 6, hcode.MaxInt62)
		if res != hcode.IntOK {
			return 0, d.sectionIntError(s, res, pos)
		}
		if b&0x40 != 0 {
			if idx >= tier.QPACKTableLen {
				return 0, d.sectionError(s, ErrInvalidStaticIndex, int64(pos), idx)
			}
			d.emit(s, staticEntries[idx], pos)
			return pos + n, nil
		}
		if idx >= s.base {
			return 0, d.sectionError(s, ErrInvalidIndex, int64(pos), idx)
		}
		e, err := d.dynamic(s, s.base-1-idx, pos)
		if err != nil {
			return 0, err
		}
		d.emit(s, mdelem.Field{Name: e.Name, Value: e.Value}, pos)
		return pos + n, nil
	case b&0x40 != 0: // Literal Field Line with Name Reference, 4-bit index, N, T
		idx, n, res := hcode.ReadInt(p[pos:], 4, hcode.MaxInt62)
		if res != hcode.IntOK {
			return 0, d.sectionIntError(s, res, pos)
		}
		var name mdelem.Str
		if b&0x10 != 0 {
			if idx >= tier.QPACKTableLen {
				return 0, d.sectionError(s, ErrInvalidStaticIndex, int64(pos), idx)
			}
			name = staticEntries[idx].Name
		} else {
			if idx >= s.base {
				return 0, d.sectionError(s, ErrInvalidIndex, int64(pos), idx)
			}
			e, err := d.dynamic(s, s.base-1-idx, pos)
			if err != nil {
				return 0, err
			}
			name = e.Name
		}
		return d.literalValue(s, p, pos, pos+n, name, b&0x20 != 0)
	case b&0x20 != 0: // Literal Field Line with Literal Name, N, H, 3-bit length
		raw, end, huff, err := d.sectionString(s, p, pos, pos, 3)
		if err != nil {
			return 0, err
		}
		name, err := d.literalName(s, raw, huff, pos)
		if err != nil || s.limitErr != nil {
			return end, err
		}
		return d.literalValue(s, p, pos, end, name, b&0x10 != 0)
	case b&0x10 != 0: // Indexed Field Line with Post-Base Index, 4-bit
		idx, n, res := hcode.ReadInt(p[pos:], 4, hcode.MaxInt62)
		if res != hcode.IntOK {
			return 0, d.sectionIntError(s, res, pos)
		}
		if idx > hcode.MaxInt62-s.base {
			return 0, d.sectionError(s, ErrInvalidIndex, int64(pos), idx)
		}
		e, err := d.dynamic(s, s.base+idx, pos)
		if err != nil {
			return 0, err
		}
		d.emit(s, mdelem.Field{Name: e.Name, Value: e.Value}, pos)
		return pos + n, nil
	default: // Literal Field Line with Post-Base Name Reference, N, 3-bit index
		idx, n, res := hcode.ReadInt(p[pos:], 3, hcode.MaxInt62)
		if res != hcode.IntOK {
			return 0, d.sectionIntError(s, res, pos)
		}
		if idx > hcode.MaxInt62-s.base {
			return 0, d.sectionError(s, ErrInvalidIndex, int64(pos), idx)
		}
		e, err := d.dynamic(s, s.base+idx, pos)
		if err != nil {
			return 0, err
		}
		return d.literalValue(s, p, pos, pos+n, e.Name, b&0x08 != 0)
	}
}

// literalValue reads the value of a literal field line at p[vpos] and
// emits the field.
func (d *Decoder) literalValue(s *section, p []byte, pos, vpos int, name mdelem.Str, never bool) (int, error) {
	raw, end, huff, err := d.sectionString(s, p, pos, vpos, 7)
	if err != nil || s.limitErr != nil {
		return end, err
	}
	internIt := d.valueInterned(name)
	if huff && !internIt && (never || d.maxCapacity == 0) && cacheable(len(raw), strCacheMinDecode) {
		// Values that recur as literals: a table that the peer may not
		// use, or never-indexed ones (see strCache).
		return d.cachedValue(s, p, pos, end, raw, name, never)
	}
	value, err := d.sectionDecode(s, &d.valueBuf, raw, huff, internIt, pos)
	if err != nil || s.limitErr != nil {
		return end, err
	}
	d.emit(s, mdelem.Field{Name: name, Value: value}.WithSensitive(never), pos)
	return end, nil
}

// cachedValue decodes a Huffman-coded value through the cache and emits
// the field.
func (d *Decoder) cachedValue(s *section, p []byte, pos, end int, raw []byte, name mdelem.Str, never bool) (int, error) {
	if d.values == nil {
		d.values = new(strCache)
	}
	slot, h, ok := lookup(d.values, raw)
	var b []byte
	if ok && int(slot.vlen) <= d.maxStringLen {
		b = d.values.value(slot)
	} else {
		var err error
		if d.valueBuf, err = hcode.AppendDecode(d.valueBuf[:0], raw, d.maxStringLen); err != nil {
			if err == hcode.ErrTooLong {
				d.overLimit(s, ErrStringLength, d.maxStringLen, pos)
				return end, nil
			}
			return 0, d.sectionError(s, ErrInvalidHuffman, int64(pos), 0)
		}
		b = d.valueBuf
		remember(d.values, slot, h, raw, b)
	}
	d.emit(s, mdelem.Field{Name: name, Value: mdelem.StrOf(mdelem.Borrowed(b))}.WithSensitive(never), pos)
	return end, nil
}

// sectionString reads the string literal with an n-bit length prefix at
// p[spos] of the field line at p[pos]. A string over the limit ends the
// section with a stream error.
func (d *Decoder) sectionString(s *section, p []byte, pos, spos int, n uint) (raw []byte, end int, huff bool, err error) {
	if raw, end, huff, ok := hcode.ReadShortString(p, spos, n, d.maxStringLen); ok {
		return raw, end, huff, nil
	}
	if spos >= len(p) {
		return nil, 0, false, d.sectionError(s, ErrTruncated, int64(pos), 0)
	}
	start, e, huff, res := hcode.ReadString(p[spos:], n, hcode.MaxInt62, d.maxStringLen)
	switch res {
	case hcode.StrTruncated:
		return nil, 0, false, d.sectionError(s, ErrTruncated, int64(pos), 0)
	case hcode.StrOverflow:
		return nil, 0, false, d.sectionError(s, ErrIntegerOverflow, int64(pos), 0)
	case hcode.StrTooLong:
		d.overLimit(s, ErrStringLength, d.maxStringLen, pos)
		return nil, len(p), false, nil
	}
	return p[spos+start : spos+e : spos+e], spos + e, huff, nil
}

// literalName decodes a literal name, through the name cache when it is
// Huffman-coded and the Decoder has no table, and resolves it.
func (d *Decoder) literalName(s *section, raw []byte, huff bool, pos int) (mdelem.Str, error) {
	if !huff || len(raw) > nameKeyMax || d.maxCapacity != 0 {
		// With a table, names recur as references to it.
		return d.sectionDecode(s, &d.nameBuf, raw, huff, true, pos)
	}
	if d.names == nil {
		d.names = new(nameCache)
	}
	slot, name := d.names.find(raw)
	if name != nil && len(name) <= d.maxStringLen {
		return d.resolve(name, true), nil
	}
	str, err := d.sectionDecode(s, &d.nameBuf, raw, huff, true, pos)
	if err == nil && s.limitErr == nil {
		slot.set(raw, d.nameBuf)
	}
	return str, err
}

// sectionDecode decodes a section's string into *buf when Huffman-coded,
// and resolves it.
func (d *Decoder) sectionDecode(s *section, buf *[]byte, raw []byte, huff, internIt bool, pos int) (mdelem.Str, error) {
	b := raw
	if huff {
		var err error
		if *buf, err = hcode.AppendDecode((*buf)[:0], raw, d.maxStringLen); err != nil {
			if err == hcode.ErrTooLong {
				d.overLimit(s, ErrStringLength, d.maxStringLen, pos)
				return mdelem.Str{}, nil
			}
			return mdelem.Str{}, d.sectionError(s, ErrInvalidHuffman, int64(pos), 0)
		}
		b = *buf
	}
	return d.resolve(b, internIt), nil
}

// emit appends a field within the limits, or records the limit it passes.
func (d *Decoder) emit(s *section, f mdelem.Field, pos int) {
	s.fieldsLeft--
	s.sizeLeft -= f.Name.Len() + f.Value.Len() + entryOverhead
	switch {
	case s.fieldsLeft < 0:
		d.overLimit(s, ErrFieldCount, d.maxFields, pos)
	case s.sizeLeft < 0:
		d.overLimit(s, ErrFieldSectionSize, d.maxSectionSize, pos)
	case s.dst != nil:
		s.dst.Append(f)
	}
}

// overLimit ends the section with a stream error.
func (d *Decoder) overLimit(s *section, reason error, limit int, pos int) {
	s.limitErr = &Error{Offset: int64(pos), StreamID: s.stream, Err: reason, Limit: uint64(limit)}
}
