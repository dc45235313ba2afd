package hpack

import (
	"math"

	"github.com/metapack/metapack/internal/tier"
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
	if d.skipping {
		// A dropped field's strings run on from the last fragment.
		if pos, need, err = d.resumeSkip(p, d.blockOff); err != nil || need > 0 {
			d.blockOff += pos
			return pos, need, err
		}
	}
	for pos < len(p) {
		b := p[pos]
		d.attempts++
		// Indexed fields with a one-byte index, the most common
		// representation, are handled here, without a call; the rest,
		// an index past the tables included, go to indexed. Unless a
		// size update is still required (fieldStart's error), a field
		// counts as seen as soon as it starts, as in indexed.
		if b > 0x80 && b < 0xff && !d.updateRequired {
			if e := d.indexedEntry(uint64(b & 0x7f)); e != nil {
				d.sawField = true
				if d.admit(int(e.size)) {
					if d.fn != nil {
						d.fn(mdelem.Field{Name: e.name, Value: e.value})
					} else {
						dst.Append(mdelem.Field{Name: e.name, Value: e.value})
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
			if err == errStringOver || err == ErrStringLength {
				// A string over the limit, or decoding past it:
				// literalSlow takes the literal; nothing changed yet.
				size, need, err = d.literalSlow(dst, rep, off)
			}
			if err == errSkipping {
				// literalSlow dropped the field: skip its strings
				// from size on.
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

// staticEntries holds the static table's entries in the dynamic table's
// form, their Strs made once rather than per indexed field, so that
// indexedEntry returns either table's entries alike. They own no ring
// bytes: chunkLen is 0.
var staticEntries = func() (es [tier.TableLen + 1]dynEntry) {
	for i := 1; i <= tier.TableLen; i++ {
		e, _ := tier.EntryAt(i)
		es[i] = dynEntry{name: mdelem.StrOf(e.Name), value: mdelem.StrOf(e.Value), size: e.Size}
	}
	return es
}()

// indexedEntry returns the entry at HPACK index idx, static or dynamic,
// or nil when idx is in neither table. It is small enough to inline into
// parse's one-byte path as well as into indexed.
func (d *Decoder) indexedEntry(idx uint64) *dynEntry {
	if idx-1 < tier.TableLen { // 1 to StaticTableLen; 0 wraps around
		return &staticEntries[idx]
	}
	if i := idx - tier.TableLen - 1; i < uint64(d.table.len()) {
		return d.table.at(int(i))
	}
	return nil
}

// indexed decodes an indexed field representation (RFC 7541 §6.1).
func (d *Decoder) indexed(dst *mdelem.Batch, p []byte, off int) (size, need int, err error) {
	// Most indexes fit the 7-bit prefix; only a full prefix needs readInt,
	// which is too big to inline.
	idx, size := uint64(p[0]&0x7f), 1
	if idx == 0x7f {
		var res intResult
		if idx, size, res = readInt(p, 7); res != intOK {
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
		return 0, 0, &InvalidIndexError{Offset: off, Index: idx, TableLen: tier.TableLen + d.table.len()}
	}
	if d.admit(int(e.size)) {
		if d.fn != nil {
			d.fn(mdelem.Field{Name: e.name, Value: e.value})
		} else {
			dst.Append(mdelem.Field{Name: e.name, Value: e.value})
		}
	} else {
		d.overLimit(off)
	}
	return size, 0, nil
}

// literal decodes a literal field representation (RFC 7541 §6.2), whose
// kind its first byte gives: 01xxxxxx with incremental indexing and a 6-bit
// name index, 0001xxxx never indexed and 0000xxxx without indexing, both
// with a 4-bit name index.
func (d *Decoder) literal(dst *mdelem.Batch, p []byte, off int) (size, need int, err error) {
	b := p[0]
	indexing := b >= 0x40
	prefix, mask := uint(4), uint64(0x0f)
	if indexing {
		prefix, mask = 6, 0x3f
	}
	idx, pos := uint64(b)&mask, 1
	if idx == mask {
		// A third of the literals in real traffic carry a name index one
		// continuation byte long; readInt takes the rest.
		if len(p) > 1 && p[1] < 0x80 {
			idx, pos = mask+uint64(p[1]), 2
		} else {
			var res intResult
			if idx, pos, res = readInt(p, prefix); res != intOK {
				need, err = intErr(res, p, off)
				return 0, need, err
			}
		}
	}
	// Take the representation's measure before touching any state, so a
	// truncated one can be retried from its start.
	var name mdelem.Str
	switch {
	case idx == 0:
		if name, pos, need, err = d.newName(p, pos, off); err != nil || need > 0 {
			return 0, need, err
		}
	case idx <= tier.TableLen:
		name = staticEntries[idx].name
	case idx-tier.TableLen-1 < uint64(d.table.len()):
		e := d.table.at(int(idx - tier.TableLen - 1))
		name = e.name
	default:
		return 0, 0, &InvalidIndexError{Offset: off, Index: idx, TableLen: tier.TableLen + d.table.len()}
	}
	valueRaw, end, valueHuff, ok := d.readString(p, pos)
	if !ok {
		valueRaw, end, valueHuff, need, err = d.readLongString(p, pos, off)
		if err != nil || need > 0 {
			return 0, need, err
		}
	}
	pos = end
	if !d.sawField {
		if err := d.fieldStart(off); err != nil {
			return 0, 0, err
		}
	}
	key := sd.KeyUnknown
	if a := name.Atom(); a != nil {
		key = a.Key()
	}
	// The usual values, which are not interned, are decoded here as
	// decodeString would, without its call: a raw one is copied as it is
	// (the measure above kept it within the limit), and a Huffman one
	// decoded into valueBuf.
	var value mdelem.Str
	switch internIt := d.internValue[key]; {
	case !valueHuff && !internIt && len(valueRaw) <= d.maxStringLen:
		value = mdelem.StrOf(mdelem.Borrowed(valueRaw))
	case valueHuff && !internIt && !d.safe:
		if d.valueBuf, err = AppendHuffmanDecodeLimit(d.valueBuf[:0], valueRaw, d.maxStringLen); err != nil {
			return 0, 0, huffmanErr(err, off)
		}
		value = mdelem.StrOf(mdelem.Borrowed(d.valueBuf))
	default:
		if value, err = d.decodeString(&d.valueBuf, valueHuff, valueRaw, internIt, d.maxStringLen, off); err != nil {
			return 0, 0, err
		}
	}
	fsize := name.Len() + value.Len() + entryOverhead
	// Append before adding: the batch copies ring bytes that adding may
	// overwrite.
	kept := false
	if d.admit(fsize) {
		if d.fn != nil {
			f := mdelem.Field{Name: name, Value: value}.WithSensitive(b&0xf0 == 0x10)
			if d.keep && value.Atom() == nil {
				value = d.ownedCopy(value.UnsafeBytes(), indexing)
				f.Value = value
			}
			d.fn(f)
			// An atom, or a copy for keeping, takes no ring bytes: the
			// table keeps it as it is (see DecodeFragmentKeep).
			kept = !value.IsBorrowed()
		} else {
			dst.Append(mdelem.Field{Name: name, Value: value}.WithSensitive(b&0xf0 == 0x10))
		}
	} else {
		d.overLimit(off)
	}
	if indexing {
		// Both strings are within the string limit, so fsize fits a
		// uint32 (see maxStringLimit).
		if kept {
			d.table.addKept(name, value, uint32(fsize))
		} else {
			d.table.add(name, value, uint32(fsize))
		}
	}
	return pos, 0, nil
}

// newName reads the new name of a literal field whose name string starts
// at p[pos], and returns it with the position after it. Like literal, it
// first makes sure that the value string is whole too, and it runs the
// checks due before a block's first field before it decodes the name.
// It keeps the rarer literal with a new name from weighing on literal.
func (d *Decoder) newName(p []byte, pos, off int) (name mdelem.Str, end, need int, err error) {
	raw, end, huff, ok := d.readString(p, pos)
	if !ok {
		if raw, end, huff, need, err = d.readLongString(p, pos, off); err != nil || need > 0 {
			return mdelem.Str{}, 0, need, err
		}
	}
	if _, _, _, ok := d.readString(p, end); !ok {
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

// readString measures the string literal at p[pos:] when it is present
// whole with a length that fits the 7-bit prefix, as most are: it returns
// the raw bytes, the position after them and the Huffman flag. Small
// enough to inline, it leaves everything else to readLongString.
func (d *Decoder) readString(p []byte, pos int) (raw []byte, end int, huff, ok bool) {
	if pos < len(p) {
		c := p[pos]
		l := int(c & 0x7f)
		end = pos + 1 + l
		if l < 0x7f && l <= d.maxStringLen && end <= len(p) {
			return p[pos+1 : end : end], end, c&0x80 != 0, true
		}
	}
	return nil, 0, false, false
}

// readLongString measures the string literal at p[pos:] in every case:
// its raw bytes, the position after them and the Huffman flag, or how
// many bytes must be present first (need). The length is checked against
// the limit before the bytes are awaited: a string over it fails with
// errStringOver, for literalSlow, which decides whether to skip it.
func (d *Decoder) readLongString(p []byte, pos, off int) (raw []byte, end int, huff bool, need int, err error) {
	l, start, huff, need, err := d.measureString(p, pos, off)
	if err != nil || need > 0 {
		return nil, 0, false, need, err
	}
	if l > d.maxStringLen {
		return nil, 0, false, 0, errStringOver // literalSlow takes it
	}
	if end = start + l; end > len(p) {
		return nil, 0, false, end, nil
	}
	return p[start:end:end], end, huff, 0, nil
}

// decodeString decodes a string literal (into *buf when Huffman-coded) and,
// when internIt is set, resolves it to an atom: of the static tier, the
// registered strings (RegisterNames) or the decoder's own interner
// (SetInterner). Otherwise, or without an atom, it returns the bytes,
// borrowed: valid until *buf is next used.
//
// A string that decodes to more than maxLen bytes fails with
// ErrStringLength itself, unwrapped, for the caller to turn into a limit
// error; invalid Huffman data with a *DecodingError.
func (d *Decoder) decodeString(buf *[]byte, huff bool, raw []byte, internIt bool, maxLen, off int) (mdelem.Str, error) {
	b := raw
	if huff {
		// The cache holds names and interned values: their atoms, or
		// their decoded bytes when they are none. Other values are
		// mostly one of a kind: caching them would cost more than the
		// few repeats save. A cached string still answers to the limit.
		if internIt {
			if s := d.cache.lookup(raw); s != nil {
				if a := s.atom; a != nil {
					if a.Len() <= maxLen {
						return mdelem.StrOf(a), nil
					}
				} else if int(s.dn) <= maxLen {
					*buf = append((*buf)[:0], s.dec[:s.dn]...)
					return mdelem.StrOf(mdelem.Borrowed(*buf)), nil
				}
			}
		}
		var err error
		if d.safe {
			*buf, err = appendHuffmanDecodeSafe((*buf)[:0], raw, maxLen)
		} else {
			*buf, err = AppendHuffmanDecodeLimit((*buf)[:0], raw, maxLen)
		}
		if err != nil {
			return mdelem.Str{}, huffmanErr(err, off)
		}
		b = *buf
	} else if len(raw) > maxLen {
		return mdelem.Str{}, ErrStringLength
	}
	if !internIt {
		// Other values are copied as they are, as the Decoder's doc
		// says: most are one of a kind, and a static-tier lookup for
		// each cost more than the few it found saved.
		return mdelem.StrOf(mdelem.Borrowed(b)), nil
	}
	a := lookupKnown(b)
	if a == nil && d.interner != nil {
		if h, ok := d.interner.Make(b); ok {
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

// huffmanErr is the error for a Huffman string that failed to decode with
// err: ErrStringLength itself, unwrapped, for the caller to turn into a
// limit error, or a *DecodingError at block offset off.
func huffmanErr(err error, off int) error {
	if err == ErrStringLength {
		return err
	}
	return &DecodingError{Offset: off, Err: err}
}

// admit counts a field of RFC 9113 size size against the limits and
// reports whether it is within them; when it is not, the caller drops it
// and calls overLimit. Small enough to inline, it leaves the caller a
// single call, to Batch.Append, per field. The budgets only shrink within
// a block, and overLimit sinks them for good, so one sign test covers
// both limits and a limit already gone over.
func (d *Decoder) admit(size int) bool {
	d.fieldsLeft--
	d.sizeLeft -= size
	return d.fieldsLeft|d.sizeLeft >= 0
}

// sunkBudget is the field budget once a limit is gone over: negative for
// good, whatever SetMaxFields adds to it later in the block.
const sunkBudget = math.MinInt / 2

// overLimit records the first limit a block goes over, if it is the
// first. It is rare, and kept out of line to leave its callers short.
//
//go:noinline
func (d *Decoder) overLimit(off int) {
	switch {
	case d.limitErr != nil:
	case d.fieldsLeft < 0:
		d.limitErr = &LimitError{Err: ErrFieldCount, Limit: d.maxFields, Offset: off}
	default:
		d.limitErr = &LimitError{Err: ErrHeaderListSize, Limit: d.maxListSize, Offset: off}
	}
	d.fieldsLeft = sunkBudget
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
