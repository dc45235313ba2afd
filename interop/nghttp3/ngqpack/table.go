//go:build nghttp3

package ngqpack

import "fmt"

// probeStream is the stream ID the probes of Table are decoded on.
const probeStream = 1 << 60

// Table reads what nghttp3's decoder holds after the encoder stream
// encStream, with maxTableCapacity advertised: the entries of absolute
// indices from to to-1, oldest first, by decoding a Probe of each on a
// fresh decoder fed encStream. When from is above 0 it also checks that
// entry from-1 is gone (the decoder rejects its probe), so a caller that
// passes its own table's bounds learns whether nghttp3's table has the
// same ones. An entry nghttp3 does not hold is an error.
func Table(encStream []byte, maxTableCapacity, from, to uint64) ([]Field, error) {
	return probeTable(encStream, maxTableCapacity, from, to, true)
}

// Entries is Table without the checks that entry from-1 is gone and that
// to is the decoder's insert count (it may be below).
func Entries(encStream []byte, maxTableCapacity, from, to uint64) ([]Field, error) {
	return probeTable(encStream, maxTableCapacity, from, to, false)
}

func probeTable(encStream []byte, maxTableCapacity, from, to uint64, bounded bool) ([]Field, error) {
	d, err := NewDecoder(maxTableCapacity, 0)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	if err := d.ReadEncoderStream(encStream); err != nil {
		return nil, fmt.Errorf("replaying %d encoder-stream bytes: %w", len(encStream), err)
	}
	if icnt := d.InsertCount(); icnt != to && (bounded || icnt < to) {
		return nil, fmt.Errorf("nghttp3's decoder has %d inserts, want %d", icnt, to)
	}
	var out []Field
	for abs := from; abs < to; abs++ {
		fields, blocked, err := d.Decode(probeStream, Probe(abs, maxTableCapacity))
		switch {
		case err != nil:
			return out, fmt.Errorf("entry %d (the table should hold %d..%d): %w", abs, from, to-1, err)
		case blocked || len(fields) != 1:
			return out, fmt.Errorf("entry %d: probe blocked %v, %d fields", abs, blocked, len(fields))
		}
		out = append(out, fields[0])
	}
	// A probe's Required Insert Count is encoded modulo twice the table's
	// maximum number of entries (RFC 9204 §4.5.1.1), so it only reaches
	// entries no further than that maximum below the insert count; older
	// ones are evicted anyway, since no table holds more.
	if maxEntries := maxTableCapacity / 32; to-from > maxEntries {
		return nil, fmt.Errorf("entries %d..%d: more than the %d a table of capacity %d holds", from, to-1, maxEntries, maxTableCapacity)
	} else if bounded && from > 0 && from-1+maxEntries >= to {
		if fields, _, err := d.Decode(probeStream, Probe(from-1, maxTableCapacity)); err == nil {
			return out, fmt.Errorf("entry %d should be evicted, but nghttp3's decoder holds %v", from-1, fields)
		} else if Code(err) != ErrDecompressionFailed {
			return out, fmt.Errorf("entry %d should be evicted: its probe fails with %w, want NGHTTP3_ERR_QPACK_DECOMPRESSION_FAILED", from-1, err)
		}
	}
	return out, nil
}
