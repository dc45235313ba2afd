package qif

import (
	"errors"
	"fmt"
	"slices"

	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/qpack"
)

// Decode decodes recs, an encoder's output, as the offline interop does,
// with a new qpack.Decoder that advertised capacity c.Capacity and c.Blocked
// blocked streams, and returns each stream's header set by stream ID. It
// feeds each encoder-stream record to the decoder in order and decodes each
// section when its record comes; a section that is blocked waits until the
// decoder reports its stream unblocked. c.Ack is not used: the decoder's
// own decoder stream goes nowhere.
//
// The corpus's files were written for draft-ietf-quic-qpack-05, in which the
// dynamic table started at the decoder's maximum capacity, and they send no
// Set Dynamic Table Capacity; under RFC 9204 it starts at 0 (section 3.2.3).
// So, when c.Capacity is not 0, Decode first gives the decoder a Set Dynamic
// Table Capacity of c.Capacity, as if the encoder had sent it: byte offsets
// in encoder-stream errors count its SetCapacityLen(c.Capacity) bytes.
//
// An error names the record (counting from 1) and the stream, and wraps
// the decoder's error (a *qpack.Error), or says that a stream ID came twice
// or that sections were still blocked at the end.
func Decode(recs []Record, c Config) (map[uint64][]Field, error) {
	dec := qpack.NewDecoder(c.Capacity, c.Blocked)
	dec.SetMaxFieldSectionSize(-1)
	batch := mdelem.NewBatch(64, 4096)
	sets := make(map[uint64][]Field)
	blocked := make(map[uint64][]byte)
	var unblocked []uint64
	var decStream []byte
	if c.Capacity > 0 {
		if err := dec.WriteEncoderStream(AppendSetCapacity(nil, c.Capacity)); err != nil {
			return nil, fmt.Errorf("setting the table's capacity to %d: %w", c.Capacity, err)
		}
	}
	decode := func(i int, id uint64, section []byte) error {
		batch.Reset()
		err := dec.Decode(batch, id, section)
		if errors.Is(err, qpack.ErrBlocked) {
			blocked[id] = section
			return nil
		}
		if err != nil {
			return fmt.Errorf("record %d (stream %d): %w", i, id, err)
		}
		set := make([]Field, batch.Len())
		for j := range set {
			f := batch.At(j)
			set[j] = Field{Name: f.Name.String(), Value: f.Value.String()}
		}
		sets[id] = set
		return nil
	}
	for n, r := range recs {
		i := n + 1 // records count from 1 in errors
		if r.StreamID == EncoderStream {
			if err := dec.WriteEncoderStream(r.Data); err != nil {
				return nil, fmt.Errorf("record %d (encoder stream): %w", i, err)
			}
			unblocked = dec.AppendUnblocked(unblocked[:0])
			for _, id := range unblocked {
				section, ok := blocked[id]
				if !ok {
					return nil, fmt.Errorf("record %d (encoder stream): the decoder unblocked stream %d, which is not blocked", i, id)
				}
				delete(blocked, id)
				if err := decode(i, id, section); err != nil {
					return nil, err
				}
				if _, ok := blocked[id]; ok {
					return nil, fmt.Errorf("record %d (encoder stream): stream %d, reported unblocked, is blocked again", i, id)
				}
			}
		} else {
			if _, ok := sets[r.StreamID]; ok {
				return nil, fmt.Errorf("record %d: stream %d has a second section", i, r.StreamID)
			}
			if _, ok := blocked[r.StreamID]; ok {
				return nil, fmt.Errorf("record %d: stream %d has a second section", i, r.StreamID)
			}
			if err := decode(i, r.StreamID, r.Data); err != nil {
				return nil, err
			}
		}
		decStream = dec.AppendDecoderStream(decStream[:0])
	}
	if len(blocked) > 0 {
		ids := make([]uint64, 0, len(blocked))
		for id := range blocked {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		return nil, fmt.Errorf("%d section(s) still blocked at the end of the input, on streams %v", len(ids), ids)
	}
	return sets, nil
}

// InOrder returns the header sets of sets in the order of their stream IDs.
func InOrder(sets map[uint64][]Field) [][]Field {
	ids := make([]uint64, 0, len(sets))
	for id := range sets {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([][]Field, len(ids))
	for i, id := range ids {
		out[i] = sets[id]
	}
	return out
}

// AppendSetCapacity appends the encoder instruction Set Dynamic Table
// Capacity (RFC 9204 section 4.3.1) of capacity to dst and returns the
// extended slice.
func AppendSetCapacity(dst []byte, capacity uint64) []byte {
	const prefix = 1<<5 - 1 // a 5-bit prefix after the pattern 001
	if capacity < prefix {
		return append(dst, 0x20|byte(capacity))
	}
	dst = append(dst, 0x20|prefix)
	for capacity -= prefix; capacity >= 0x80; capacity >>= 7 {
		dst = append(dst, byte(capacity)|0x80)
	}
	return append(dst, byte(capacity))
}

// SetCapacityLen returns the length of the Set Dynamic Table Capacity
// instruction of capacity.
func SetCapacityLen(capacity uint64) int { return len(AppendSetCapacity(nil, capacity)) }
