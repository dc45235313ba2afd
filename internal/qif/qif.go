// Package qif reads and writes the files of the QPACK offline interop
// (https://github.com/quicwg/base-drafts/wiki/QPACK-Offline-Interop): QIF
// header sets, the encoder's output records and the names of the corpus's
// files, and runs package qpack's encoder and decoder over them the way the
// interop does. Tests, benchmarks and the metapack CLI use it.
package qif

import (
	"bytes"
	"fmt"
)

// Field is one line of a QIF: a field's name and value, byte for byte.
type Field struct {
	Name, Value string
}

// Parse reads a QIF: header sets separated by blank lines, one field a
// line as name, a tab and value (the first tab separates them, so a value
// may hold tabs, and may be empty). Lines end with "\n" only: any other
// byte, "\r" included, belongs to the name or value. Lines that start with
// "#" are comments, wherever they are; they neither start nor end a set.
// Several blank lines in a row separate as one, and the last set needs no
// blank line after it. A line without a tab is an error naming its line.
func Parse(data []byte) ([][]Field, error) {
	var sets [][]Field
	var cur []Field
	for lineno := 1; len(data) > 0; lineno++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		switch {
		case len(line) == 0:
			if cur != nil {
				sets = append(sets, cur)
				cur = nil
			}
		case line[0] == '#':
		default:
			name, value, ok := bytes.Cut(line, []byte{'\t'})
			if !ok {
				return nil, fmt.Errorf("line %d: no tab between name and value: %q", lineno, line)
			}
			cur = append(cur, Field{Name: string(name), Value: string(value)})
		}
	}
	if cur != nil {
		sets = append(sets, cur)
	}
	return sets, nil
}

// Append appends sets to dst as QIF text, one "name\tvalue\n" line a field
// and one blank line after each set, and returns the extended slice. Parse
// reads it back unchanged, except for an empty set, which has no line of
// its own, and for a name holding a tab or starting with "#", or a name
// or value holding a newline, which no QIF can hold.
func Append(dst []byte, sets [][]Field) []byte {
	for _, set := range sets {
		for _, f := range set {
			dst = append(dst, f.Name...)
			dst = append(dst, '\t')
			dst = append(dst, f.Value...)
			dst = append(dst, '\n')
		}
		dst = append(dst, '\n')
	}
	return dst
}

// RawBytes returns the sum of the lengths of every name and value in sets:
// the uncompressed size that compression ratios are measured against.
func RawBytes(sets [][]Field) int {
	n := 0
	for _, set := range sets {
		for _, f := range set {
			n += len(f.Name) + len(f.Value)
		}
	}
	return n
}
