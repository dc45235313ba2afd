package hpack

import (
	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/mdelem"
	sd "github.com/metapack/metapack/staticdata"
)

// parse decodes the representations in p, which starts at block offset
// d.blockOff, and advances d.blockOff past what it consumed. It stops early
// when p ends inside a representation: need is then the number of bytes,
// counted from that representation's start (p[n]), that must be present
// before it can be parsed.
func (d *Decoder) parse(dst *mdelem.Batch, p []byte) (n, need int, err error) {
	pos := 0
	for pos < len(p) {
		rep := p[pos:]
		off := d.blockOff + pos
		d.attempts++
		var size int
		switch b := rep[0]; {
		case b >= 0x80: // indexed field, 7-bit index
			size, need, err = d.indexed(dst, rep, off)
		case b >= 0x40: // literal with incremental indexing, 6-bit name index
			size, need, err = d.literal(dst, rep, off, 6, true, false)
		case b >= 0x20: // dynamic table size update, 5-bit size
			size, need, err = d.sizeUpdate(rep, off)
		case b >= 0x10: // literal never indexed, 4-bit name index
			size, need, err = d.literal(dst, rep, off, 4, false, true)
		default: // literal without indexing, 4-bit name index
			size, need, err = d.literal(dst, rep, off, 4, false, false)
		}
		if err != nil || need > 0 {
			d.blockOff += pos
			return pos, need, err
		}
		pos += size
	}
	d.blockOff += pos
	return pos, 0, nil
}

// intErr turns a failed integer read into parse results.
func intErr(res intResult, p []byte, off int) (need int, err error) {
	if res == intTruncated {
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

func (d *Decoder) indexed(dst *mdelem.Batch, p []byte, off int) (size, need int, err error) {
	idx, size, res := readInt(p, 7)
	if res != intOK {
		need, err = intErr(res, p, off)
		return 0, need, err
	}
	if !d.sawField {
		if err := d.fieldStart(off); err != nil {
			return 0, 0, err
		}
	}
	switch {
	case idx >= 1 && idx <= sd.StaticTableLen:
		e := &sd.StaticTable[idx]
		d.emit(dst, off, e.Name, nil, e.Value, nil, false)
	case idx > sd.StaticTableLen && idx-sd.StaticTableLen-1 < uint64(d.table.len()):
		e := d.table.at(int(idx - sd.StaticTableLen - 1))
		d.emit(dst, off, e.name.atom, d.table.bytesOf(e.name), e.value.atom, d.table.bytesOf(e.value), false)
	default:
		return 0, 0, &InvalidIndexError{Offset: off, Index: idx, TableLen: sd.StaticTableLen + d.table.len()}
	}
	return size, 0, nil
}

// bytesOf returns the ring bytes of a non-atom string, or nil for an atom.
func (t *dynTable) bytesOf(s dynStr) []byte {
	if s.atom != nil {
		return nil
	}
	return t.str(s)
}

func (d *Decoder) literal(dst *mdelem.Batch, p []byte, off int, prefix uint, indexing, never bool) (size, need int, err error) {
	idx, pos, res := readInt(p, prefix)
	if res != intOK {
		need, err = intErr(res, p, off)
		return 0, need, err
	}
	// Take the representation's measure before touching any state, so a
	// truncated one can be retried from its start.
	var nameAtom *sd.Atom
	var nameBytes, nameRaw []byte
	var nameHuff bool
	switch {
	case idx == 0:
		nameHuff, nameRaw, pos, need, err = d.readString(p, pos, off)
		if err != nil || need > 0 {
			return 0, need, err
		}
	case idx <= sd.StaticTableLen:
		nameAtom = sd.StaticTable[idx].Name
	case idx-sd.StaticTableLen-1 < uint64(d.table.len()):
		e := d.table.at(int(idx - sd.StaticTableLen - 1))
		nameAtom, nameBytes = e.name.atom, d.table.bytesOf(e.name)
	default:
		return 0, 0, &InvalidIndexError{Offset: off, Index: idx, TableLen: sd.StaticTableLen + d.table.len()}
	}
	valueHuff, valueRaw, pos, need, err := d.readString(p, pos, off)
	if err != nil || need > 0 {
		return 0, need, err
	}
	if !d.sawField {
		if err := d.fieldStart(off); err != nil {
			return 0, 0, err
		}
	}
	if idx == 0 {
		if nameAtom, nameBytes, err = d.decodeName(nameHuff, nameRaw, off); err != nil {
			return 0, 0, err
		}
	}
	key := sd.KeyUnknown
	if nameAtom != nil {
		key = nameAtom.Key
	}
	valueAtom, valueBytes, err := d.decodeValue(valueHuff, valueRaw, key, off)
	if err != nil {
		return 0, 0, err
	}
	// Emit before adding: the batch copies ring bytes that adding may
	// overwrite.
	d.emit(dst, off, nameAtom, nameBytes, valueAtom, valueBytes, never)
	if indexing {
		d.table.add(nameAtom, nameBytes, valueAtom, valueBytes)
	}
	return pos, 0, nil
}

// readString measures the string literal at p[pos:]: its Huffman flag, its
// raw bytes and the position after it. The length is checked against the
// limit before the bytes are awaited.
func (d *Decoder) readString(p []byte, pos, off int) (huff bool, raw []byte, end, need int, err error) {
	if pos >= len(p) {
		return false, nil, 0, pos + 1, nil
	}
	huff = p[pos]&0x80 != 0
	l, n, res := readInt(p[pos:], 7)
	if res != intOK {
		if res == intTruncated {
			return false, nil, 0, len(p) + 1, nil
		}
		return false, nil, 0, 0, &DecodingError{Offset: off, Err: ErrIntegerOverflow}
	}
	if l > uint64(d.maxStringLen) {
		return false, nil, 0, 0, &DecodingError{Offset: off, Err: ErrStringLength}
	}
	start := pos + n
	end = start + int(l)
	if end > len(p) {
		return false, nil, 0, end, nil
	}
	return huff, p[start:end:end], end, 0, nil
}

// decodeName turns a literal name into an atom (static or interned) or,
// when the interner is full or absent, bytes.
func (d *Decoder) decodeName(huff bool, raw []byte, off int) (*sd.Atom, []byte, error) {
	return d.decodeString(&d.nameBuf, huff, raw, true, off)
}

// decodeValue turns a literal value into a static atom, an interned atom
// (for the keys set by SetInternedValues) or bytes.
func (d *Decoder) decodeValue(huff bool, raw []byte, key sd.KeyID, off int) (*sd.Atom, []byte, error) {
	return d.decodeString(&d.valueBuf, huff, raw, d.internValue[key], off)
}

// decodeString decodes a string literal (into *buf when Huffman-coded) and
// resolves it to an atom: through the interner when internIt is set,
// otherwise from the static tier only. Without an atom it returns the
// bytes, valid until *buf is next used.
func (d *Decoder) decodeString(buf *[]byte, huff bool, raw []byte, internIt bool, off int) (*sd.Atom, []byte, error) {
	b := raw
	if huff {
		if a := d.cache.get(raw); a != nil {
			return a, nil, nil
		}
		var err error
		*buf, err = AppendHuffmanDecodeLimit((*buf)[:0], raw, d.maxStringLen)
		if err != nil {
			return nil, nil, &DecodingError{Offset: off, Err: err}
		}
		b = *buf
	}
	var a *sd.Atom
	if internIt && d.interner != nil {
		if h, ok := d.interner.Make(b); ok {
			a = h.Atom()
		}
	} else if h, ok := intern.Static(b); ok {
		a = h.Atom()
	}
	if a == nil {
		return nil, b, nil
	}
	if huff {
		d.cache.put(raw, a)
	}
	return a, nil, nil
}

// emit appends a decoded field to dst unless a limit has been reached, and
// counts it against the limits either way.
func (d *Decoder) emit(dst *mdelem.Batch, off int, nameAtom *sd.Atom, nameBytes []byte, valueAtom *sd.Atom, valueBytes []byte, sensitive bool) {
	size := entryOverhead + len(nameBytes) + len(valueBytes)
	if nameAtom != nil {
		size += len(nameAtom.S)
	}
	if valueAtom != nil {
		size += len(valueAtom.S)
	}
	d.fields++
	d.listSize += size
	if d.limitErr != nil {
		return
	}
	switch {
	case d.fields > d.maxFields:
		d.limitErr = &LimitError{Err: ErrFieldCount, Limit: d.maxFields, Offset: off}
	case d.listSize > d.maxListSize:
		d.limitErr = &LimitError{Err: ErrHeaderListSize, Limit: d.maxListSize, Offset: off}
	default:
		f := mdelem.Field{Sensitive: sensitive}
		if nameAtom != nil {
			f.Name = mdelem.StrAtom(nameAtom)
		} else {
			f.Name = mdelem.BorrowedStr(nameBytes)
		}
		if valueAtom != nil {
			f.Value = mdelem.StrAtom(valueAtom)
		} else {
			f.Value = mdelem.BorrowedStr(valueBytes)
		}
		dst.Append(f)
	}
}

func (d *Decoder) sizeUpdate(p []byte, off int) (size, need int, err error) {
	v, size, res := readInt(p, 5)
	if res != intOK {
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
	d.updateRequired = false
	d.table.setMax(uint32(v))
	return size, 0, nil
}
