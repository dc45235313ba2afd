package qpack

import (
	"math"

	"github.com/metapack/metapack/internal/dyntable"
	"github.com/metapack/metapack/internal/hcode"
	"github.com/metapack/metapack/internal/tabledef"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/mdelem"
)

// entryOverhead is the 32 bytes RFC 9204 §3.2.1 adds to an entry's size.
const entryOverhead = tabledef.FieldOverhead

// WriteEncoderStream feeds bytes of the peer's encoder stream (RFC 9204
// §4.3), in any fragmentation: an instruction may span writes, and the
// Decoder buffers its start, at most what the table capacity allows. Each
// insert may unblock streams (see AppendUnblocked). An error is an *Error
// with ErrCodeEncoderStream, a connection error.
func (d *Decoder) WriteEncoderStream(p []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err != nil {
		return d.poisoned()
	}
	before := d.inserts
	err := d.readEncoderStream(p)
	if d.inserts != before {
		d.wake()
	}
	if err != nil {
		d.err = err
	}
	return err
}

func (d *Decoder) poisoned() error {
	return &Error{Code: d.err.(*Error).Code, Err: ErrDecoderPoisoned}
}

// readEncoderStream parses p after the buffered start of an instruction.
func (d *Decoder) readEncoderStream(p []byte) error {
	for len(d.partial) > 0 {
		// Complete the split instruction from p, as far as it needs.
		k := min(d.need-len(d.partial), len(p))
		d.partial = append(d.partial, p[:k]...)
		p = p[k:]
		if len(d.partial) < d.need {
			return nil
		}
		n, need, err := d.instruction(d.partial)
		if err != nil {
			return err
		}
		if need > 0 {
			d.need = need
			continue
		}
		// instruction consumed all of partial: need was exact.
		d.esOff += int64(n)
		d.partial = d.partial[:0]
	}
	for len(p) > 0 {
		n, need, err := d.instruction(p)
		if err != nil {
			return err
		}
		if need > 0 {
			d.partial = append(d.partial[:0], p...)
			d.need = need
			return nil
		}
		d.esOff += int64(n)
		p = p[n:]
	}
	return nil
}

// esError is an encoder-stream error at the current instruction.
func (d *Decoder) esError(reason error, index uint64) error {
	return &Error{Code: ErrCodeEncoderStream, Offset: d.esOff, Err: reason, Limit: index}
}

// instruction executes the encoder instruction at the start of p and
// returns its length, or need, how long p must be for it.
func (d *Decoder) instruction(p []byte) (n, need int, err error) {
	b := p[0]
	switch {
	case b&0x80 != 0: // Insert with Name Reference, 6-bit index
		idx, pos, res := hcode.ReadInt(p, 6, hcode.MaxInt62)
		if res != hcode.IntOK {
			return d.intResult(p, res)
		}
		var name mdelem.Str
		if b&0x40 != 0 {
			e, ok := tier.QPACKEntryAt(int(min(idx, math.MaxInt32)))
			if !ok {
				return 0, 0, d.esError(ErrInvalidStaticIndex, idx)
			}
			name = mdelem.StrOf(e.Name)
		} else {
			e := d.relative(idx)
			if e == nil {
				return 0, 0, d.esError(ErrInvalidIndex, idx)
			}
			name = e.Name
		}
		raw, end, huff, need, err := d.esString(p, pos, 7)
		if err != nil || need > 0 {
			return 0, need, err
		}
		value, err := d.esDecode(&d.valueBuf, raw, huff, d.valueInterned(name))
		if err != nil {
			return 0, 0, err
		}
		return end, 0, d.insert(name, value)
	case b&0x40 != 0: // Insert with Literal Name, 5-bit length
		nraw, nend, nhuff, need, err := d.esString(p, 0, 5)
		if err != nil || need > 0 {
			return 0, need, err
		}
		vraw, end, vhuff, need, err := d.esString(p, nend, 7)
		if err != nil || need > 0 {
			return 0, need, err
		}
		name, err := d.esDecode(&d.nameBuf, nraw, nhuff, true)
		if err != nil {
			return 0, 0, err
		}
		value, err := d.esDecode(&d.valueBuf, vraw, vhuff, d.valueInterned(name))
		if err != nil {
			return 0, 0, err
		}
		return end, 0, d.insert(name, value)
	case b&0x20 != 0: // Set Dynamic Table Capacity, 5-bit
		c, n, res := hcode.ReadInt(p, 5, hcode.MaxInt62)
		if res != hcode.IntOK {
			return d.intResult(p, res)
		}
		if c > d.maxCapacity {
			return 0, 0, d.esError(ErrCapacity, c)
		}
		d.table.SetMax(uint32(c))
		return n, 0, nil
	default: // Duplicate, 5-bit index
		idx, n, res := hcode.ReadInt(p, 5, hcode.MaxInt62)
		if res != hcode.IntOK {
			return d.intResult(p, res)
		}
		e := d.relative(idx)
		if e == nil {
			return 0, 0, d.esError(ErrInvalidIndex, idx)
		}
		name, value := e.Name, e.Value
		// The insert may evict the entry: its value's ring bytes are
		// copied first (the table copies a name itself).
		if value.IsBorrowed() {
			d.dupBuf = append(d.dupBuf[:0], value.UnsafeBytes()...)
			value = mdelem.StrOf(mdelem.Borrowed(d.dupBuf))
		}
		return n, 0, d.insert(name, value)
	}
}

// intResult turns a failed integer read into instruction's results.
func (d *Decoder) intResult(p []byte, res hcode.IntResult) (int, int, error) {
	if res == hcode.IntTruncated {
		return 0, len(p) + 1, nil
	}
	return 0, 0, d.esError(ErrIntegerOverflow, 0)
}

// relative returns the entry of relative index idx on the encoder stream
// (RFC 9204 §3.2.5), or nil.
func (d *Decoder) relative(idx uint64) *dyntable.Entry {
	if idx >= uint64(d.table.Len()) {
		return nil
	}
	return d.table.At(int(idx))
}

// esString reads the string literal with an n-bit length prefix at
// p[pos:], or says how long p must be. A length that no entry within the
// capacity can have fails at once, so a partial instruction stays small.
func (d *Decoder) esString(p []byte, pos int, n uint) (raw []byte, end int, huff bool, need int, err error) {
	capacity := int(d.table.Max())
	limit := capacity
	if pos < len(p) && p[pos]>>n&1 != 0 {
		// Huffman codes are at least 5 bits: 8 raw bytes make at least
		// 8*8/30 decoded ones, a bound of 30/8 raw bytes per byte.
		limit = capacity/8*30 + 30
	}
	start, e, huff, res := hcode.ReadString(p[pos:], n, hcode.MaxInt62, limit)
	switch res {
	case hcode.StrTruncated:
		return nil, 0, false, pos + e, nil
	case hcode.StrOverflow:
		return nil, 0, false, 0, d.esError(ErrIntegerOverflow, 0)
	case hcode.StrTooLong:
		return nil, 0, false, 0, d.esError(ErrEntryTooLarge, 0)
	}
	return p[pos+start : pos+e : pos+e], pos + e, huff, 0, nil
}

// esDecode decodes an encoder-stream string into *buf when Huffman-coded,
// bounded by the capacity, and resolves it.
func (d *Decoder) esDecode(buf *[]byte, raw []byte, huff, internIt bool) (mdelem.Str, error) {
	b := raw
	if huff {
		var err error
		if *buf, err = hcode.AppendDecode((*buf)[:0], raw, int(d.table.Max())); err != nil {
			if err == hcode.ErrTooLong {
				return mdelem.Str{}, d.esError(ErrEntryTooLarge, 0)
			}
			return mdelem.Str{}, d.esError(ErrInvalidHuffman, 0)
		}
		b = *buf
	}
	return d.resolve(b, internIt), nil
}

// insert adds an entry, which must fit the capacity, and counts it.
func (d *Decoder) insert(name, value mdelem.Str) error {
	size := uint64(name.Len()) + uint64(value.Len()) + entryOverhead
	if size > uint64(d.table.Max()) {
		return d.esError(ErrEntryTooLarge, 0)
	}
	d.table.Add(name, value, uint32(size), false)
	d.inserts++
	return nil
}

// wake moves the blocked sections whose inserts have all arrived to the
// unblocked list.
func (d *Decoder) wake() {
	for i := 0; i < len(d.blocked); {
		if s := d.blocked[i]; s.required <= d.inserts {
			d.unblocked = append(d.unblocked, s.stream)
			if uint64(len(d.woken)) >= d.maxBlocked { // bounded: the oldest goes
				d.woken = append(d.woken[:0], d.woken[1:]...)
			}
			d.woken = append(d.woken, s)
			d.blocked[i] = d.blocked[len(d.blocked)-1]
			d.blocked = d.blocked[:len(d.blocked)-1]
			continue
		}
		i++
	}
}
