package ngqpack

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
)

// ReadQIF reads a QPACK offline-interop input file: lines of a name, a
// tab and a value; a blank line ends a header set; lines starting with #
// are comments.
func ReadQIF(path string) ([][]Field, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var sets [][]Field
	var cur []Field
	for i, line := range bytes.Split(data, []byte("\n")) {
		switch {
		case len(line) == 0:
			if len(cur) > 0 {
				sets = append(sets, cur)
				cur = nil
			}
		case line[0] == '#':
		default:
			name, value, ok := bytes.Cut(line, []byte("\t"))
			if !ok {
				return nil, fmt.Errorf("%s:%d: no tab between name and value", path, i+1)
			}
			cur = append(cur, Field{Name: string(name), Value: string(value)})
		}
	}
	if len(cur) > 0 {
		sets = append(sets, cur)
	}
	return sets, nil
}

// Record is one record of an offline-interop encoded file: stream 0 is
// the encoder stream, any other stream one whole field section.
type Record struct {
	Stream uint64
	Data   []byte
}

// ReadRecords reads an offline-interop encoded file: records of a
// big-endian 64-bit stream ID, a big-endian 32-bit length and that many
// bytes.
func ReadRecords(path string) ([]Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []Record
	for off := 0; off < len(data); {
		if len(data)-off < 12 {
			return nil, fmt.Errorf("%s: truncated record header at byte %d", path, off)
		}
		id := binary.BigEndian.Uint64(data[off:])
		n := int(binary.BigEndian.Uint32(data[off+8:]))
		off += 12
		if len(data)-off < n {
			return nil, fmt.Errorf("%s: record at byte %d runs past the end", path, off-12)
		}
		out = append(out, Record{Stream: id, Data: data[off : off+n]})
		off += n
	}
	return out, nil
}
