package qif

import (
	"fmt"
	"math"

	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/qpack"
)

// Encode encodes sets as the offline interop does, with a new qpack.Encoder
// for a peer whose SETTINGS are c.Capacity and c.Blocked, set i on stream
// i+1, and returns the records: before each field section, the
// encoder-stream bytes it needs, as a record of stream EncoderStream (none
// when there are none). With c.Ack set, each section is decoded at once by
// a qpack.Decoder with the same settings, and the decoder-stream bytes that
// gives (acknowledgements, insert count increments) go back to the encoder
// before the next set; an error there is a bug in package qpack, and Encode
// returns it. A capacity above 2^32-1 is refused.
func Encode(sets [][]Field, c Config) ([]byte, error) {
	if c.Capacity > math.MaxUint32 {
		return nil, fmt.Errorf("capacity %d is above 2^32-1", c.Capacity)
	}
	enc := qpack.NewEncoder()
	enc.SetMaxTableCapacityLimit(uint32(c.Capacity))
	enc.SetPeerSettings(c.Capacity, c.Blocked)
	var dec *qpack.Decoder
	var got *mdelem.Batch
	if c.Ack {
		dec = qpack.NewDecoder(c.Capacity, c.Blocked)
		dec.SetMaxFieldSectionSize(-1)
		got = mdelem.NewBatch(64, 4096)
	}
	batch := mdelem.NewBatch(64, 4096)
	var out, section, encStream, decStream []byte
	for i, set := range sets {
		id := uint64(i + 1)
		batch.Reset()
		for _, f := range set {
			batch.Append(mdelem.From(mdelem.BorrowString(f.Name), mdelem.BorrowString(f.Value)))
		}
		if err := batch.Err(); err != nil {
			return nil, fmt.Errorf("set %d: %w", i+1, err)
		}
		section, encStream = enc.AppendSection(section[:0], encStream[:0], id, batch)
		if len(encStream) > 0 {
			out = AppendRecord(out, EncoderStream, encStream)
		}
		out = AppendRecord(out, id, section)
		if !c.Ack {
			continue
		}
		if err := dec.WriteEncoderStream(encStream); err != nil {
			return nil, fmt.Errorf("set %d (stream %d): our decoder refuses our encoder stream: %w", i+1, id, err)
		}
		got.Reset()
		if err := dec.Decode(got, id, section); err != nil {
			return nil, fmt.Errorf("set %d (stream %d): our decoder refuses our section: %w", i+1, id, err)
		}
		decStream = dec.AppendDecoderStream(decStream[:0])
		if err := enc.WriteDecoderStream(decStream); err != nil {
			return nil, fmt.Errorf("set %d (stream %d): our encoder refuses our decoder stream: %w", i+1, id, err)
		}
	}
	return out, nil
}
