package qif

import (
	"encoding/binary"
	"fmt"
	"math"
)

// EncoderStream is the stream ID that marks a record of encoder-stream
// bytes; every other stream ID's record is one field section of that stream.
const EncoderStream = 0

// recordHeader is the size of a record's header: a big-endian 64-bit stream
// ID and a big-endian 32-bit length.
const recordHeader = 12

// Record is one record of the offline-interop format: bytes of the encoder
// stream (StreamID EncoderStream) or one field section of stream StreamID.
type Record struct {
	StreamID uint64
	Data     []byte
}

// ParseRecords splits data, an encoder's output, into its records: each a
// big-endian 64-bit stream ID, a big-endian 32-bit length and that many
// bytes. The records' Data alias data. A record cut short is an error that
// names its byte offset.
func ParseRecords(data []byte) ([]Record, error) {
	var recs []Record
	for off := 0; off < len(data); {
		if len(data)-off < recordHeader {
			return nil, fmt.Errorf("offset %d: record header cut short: %d of %d bytes", off, len(data)-off, recordHeader)
		}
		id := binary.BigEndian.Uint64(data[off:])
		n := binary.BigEndian.Uint32(data[off+8:])
		if uint64(n) > uint64(len(data)-off-recordHeader) {
			return nil, fmt.Errorf("offset %d: stream %d's record says %d bytes, %d follow", off, id, n, len(data)-off-recordHeader)
		}
		start := off + recordHeader
		off = start + int(n)
		recs = append(recs, Record{StreamID: id, Data: data[start:off:off]})
	}
	return recs, nil
}

// AppendRecord appends the record of p on stream streamID to dst and
// returns the extended slice. It panics if p is 2^32 bytes or longer, which
// the format cannot carry.
func AppendRecord(dst []byte, streamID uint64, p []byte) []byte {
	if uint64(len(p)) > math.MaxUint32 {
		panic(fmt.Sprintf("qif: a record of %d bytes does not fit the format's 32-bit length", len(p)))
	}
	dst = binary.BigEndian.AppendUint64(dst, streamID)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(p)))
	return append(dst, p...)
}

// WireBytes returns the bytes that recs carry, without their headers: what
// an encoder sent (field sections and encoder stream).
func WireBytes(recs []Record) int {
	n := 0
	for _, r := range recs {
		n += len(r.Data)
	}
	return n
}
