package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/internal/tier"
)

// The explainer walks the representations of HPACK header blocks (RFC 7541
// §6) and prints each one with its byte offset and bytes. It tracks the
// dynamic table itself to name indexed fields, and checks only what it needs
// to go on; the decoder is what validates a block.

// explainHexBytes is how many bytes one line of the breakdown shows.
const explainHexBytes = 8

// explainer explains the blocks of one connection, in order.
type explainer struct {
	w       *errWriter
	entries []story.Header // the dynamic table, newest first
	size    int            // its size in RFC 7541 terms
	max     int            // its maximum size
}

func newExplainer(w io.Writer, tableSize uint32) *explainer {
	return &explainer{w: &errWriter{w: w}, max: int(tableSize)}
}

// explainError is a block the explainer cannot walk past.
type explainError struct {
	offset int
	what   string
}

func (e *explainError) Error() string { return fmt.Sprintf("offset %d: %s", e.offset, e.what) }

// block explains header block number n (from 1). It returns the error that
// stopped it, or one writing the breakdown.
func (e *explainer) block(n int, b []byte) error {
	e.w.printf("block %d: %s\n", n, plural(len(b), "byte", "bytes"))
	e.row("offset", "bytes", "representation")
	for off := 0; off < len(b); {
		next, err := e.representation(b, off)
		if err != nil {
			return err
		}
		off = next
	}
	e.w.printf("dynamic table after block %d: %s, size %d of %d\n", n, plural(len(e.entries), "entry", "entries"), e.size, e.max)
	return e.w.err
}

// representation explains the representation at b[off:] and returns where
// the next one starts.
func (e *explainer) representation(b []byte, off int) (int, error) {
	c := b[off]
	switch {
	case c&0x80 != 0: // §6.1 indexed header field
		idx, n, err := readInt(b, off, 7)
		if err != nil {
			return 0, err
		}
		h, where, err := e.lookup(idx, off)
		if err != nil {
			return 0, err
		}
		e.line(off, b[off:off+n], fmt.Sprintf("indexed field %d (%s table): %s", idx, where, showField(h)))
		return off + n, nil
	case c&0xe0 == 0x20: // §6.3 dynamic table size update
		v, n, err := readInt(b, off, 5)
		if err != nil {
			return 0, err
		}
		evicted := e.setMax(int(v))
		e.line(off, b[off:off+n], fmt.Sprintf("dynamic table size update to %d%s", v, evictedNote(evicted)))
		return off + n, nil
	}
	kind, prefix := "literal without indexing", uint8(4)
	switch {
	case c&0xc0 == 0x40:
		kind, prefix = "literal with incremental indexing", 6
	case c&0xf0 == 0x10:
		kind = "literal never indexed"
	}
	idx, n, err := readInt(b, off, prefix)
	if err != nil {
		return 0, err
	}
	var h story.Header
	next := off + n
	if idx == 0 {
		e.line(off, b[off:next], kind+", literal name")
		if h.Name, next, err = e.str(b, next, "name"); err != nil {
			return 0, err
		}
	} else {
		name, where, err := e.lookup(idx, off)
		if err != nil {
			return 0, err
		}
		h.Name = name.Name
		e.line(off, b[off:next], fmt.Sprintf("%s, name from index %d (%s table): %s", kind, idx, where, show(h.Name)))
	}
	if h.Value, next, err = e.str(b, next, "value"); err != nil {
		return 0, err
	}
	if kind == "literal with incremental indexing" {
		if evicted, ok := e.add(h); ok {
			e.note(fmt.Sprintf("  -> dynamic table index 62: %s (table size %d of %d)%s", showField(h), e.size, e.max, evictedNote(evicted)))
		} else {
			e.note(fmt.Sprintf("  -> larger than the dynamic table's %d bytes: not added%s", e.max, evictedNote(evicted)))
		}
	}
	return next, nil
}

// str explains the string literal (§5.2) at b[off:], a name or a value, and
// returns it and where it ends.
func (e *explainer) str(b []byte, off int, what string) (string, int, error) {
	if off >= len(b) {
		return "", 0, &explainError{off, "block ends before the " + what + " string"}
	}
	length, n, err := readInt(b, off, 7)
	if err != nil {
		return "", 0, err
	}
	start := off + n
	if length > uint64(len(b)-start) {
		return "", 0, &explainError{off, fmt.Sprintf("%s string of %d bytes, but the block has %d left", what, length, len(b)-start)}
	}
	data := b[start : start+int(length)]
	s, desc := string(data), fmt.Sprintf("  %s: raw string, %s", what, plural(int(length), "byte", "bytes"))
	if b[off]&0x80 != 0 {
		dec, err := hpack.AppendHuffmanDecode(nil, data, -1)
		if err != nil {
			return "", 0, &explainError{off, fmt.Sprintf("%s string: %v", what, strings.TrimPrefix(err.Error(), "hpack: "))}
		}
		s, desc = string(dec), fmt.Sprintf("  %s: Huffman string, %s, decodes to %d", what, plural(int(length), "byte", "bytes"), len(dec))
	}
	if length == 0 {
		desc += `: ""`
	}
	e.line(off, b[off:start], desc)
	if length > 0 {
		e.line(start, data, "    "+strconv.Quote(s))
	}
	return s, start + int(length), nil
}

// lookup returns table entry idx (1-based, static entries first).
func (e *explainer) lookup(idx uint64, off int) (story.Header, string, error) {
	switch {
	case idx >= 1 && idx <= tier.TableLen:
		en, _ := tier.EntryAt(int(idx))
		return story.Header{Name: en.Name.String(), Value: en.Value.String()}, "static", nil
	case idx > tier.TableLen && idx-tier.TableLen <= uint64(len(e.entries)):
		return e.entries[idx-tier.TableLen-1], "dynamic", nil
	}
	return story.Header{}, "", &explainError{off, fmt.Sprintf("index %d is not in the tables (%d static and %d dynamic entries)", idx, tier.TableLen, len(e.entries))}
}

// add inserts h at the front of the dynamic table, unless it is larger
// than the table, and returns how many entries that evicted (§4.4).
func (e *explainer) add(h story.Header) (evicted int, added bool) {
	size := len(h.Name) + len(h.Value) + 32
	evicted = e.evictTo(e.max - size)
	if size > e.max {
		return evicted, false
	}
	e.entries = append([]story.Header{h}, e.entries...)
	e.size += size
	return evicted, true
}

// setMax sets the table's maximum size and returns how many entries that
// evicted (§4.3).
func (e *explainer) setMax(v int) int {
	e.max = v
	return e.evictTo(v)
}

// evictTo drops the oldest entries until the size is at most target.
func (e *explainer) evictTo(target int) int {
	n := 0
	for len(e.entries) > 0 && e.size > max(target, 0) {
		last := e.entries[len(e.entries)-1]
		e.size -= len(last.Name) + len(last.Value) + 32
		e.entries = e.entries[:len(e.entries)-1]
		n++
	}
	return n
}

func evictedNote(n int) string {
	if n == 0 {
		return ""
	}
	return ", evicting " + plural(n, "entry", "entries")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// line prints raw, which starts at offset off, explainHexBytes bytes a
// line, with desc beside the first line.
func (e *explainer) line(off int, raw []byte, desc string) {
	for i := 0; i < len(raw) || i == 0; i += explainHexBytes {
		chunk := raw[i:min(i+explainHexBytes, len(raw))]
		e.row(strconv.Itoa(off+i), fmt.Sprintf("% x", chunk), desc)
		desc = ""
	}
}

// note prints desc in the representation column, without bytes.
func (e *explainer) note(desc string) { e.row("", "", desc) }

// row prints one line of the breakdown's three columns.
func (e *explainer) row(offset, bytes, desc string) {
	line := fmt.Sprintf("%6s  %-*s  %s", offset, 3*explainHexBytes-1, bytes, desc)
	e.w.printf("%s\n", strings.TrimRight(line, " "))
}

// readInt reads the integer (§5.1) with an n-bit prefix at b[off:] and
// returns it and its length in bytes. It takes at most 2^32-1, as the
// decoder does.
func readInt(b []byte, off int, n uint8) (uint64, int, error) {
	mask := uint64(1)<<n - 1
	v := uint64(b[off]) & mask
	if v < mask {
		return v, 1, nil
	}
	for i, shift := off+1, 0; i < len(b); i, shift = i+1, shift+7 {
		v += uint64(b[i]&0x7f) << shift
		if v > 1<<32-1 || shift > 28 {
			return 0, 0, &explainError{off, "integer above 2^32-1"}
		}
		if b[i]&0x80 == 0 {
			return v, i - off + 1, nil
		}
	}
	return 0, 0, &explainError{off, "block ends inside an integer"}
}

// showField formats a header field as "name: value".
func showField(h story.Header) string { return show(h.Name) + ": " + show(h.Value) }

// show returns s as it is when it is printable ASCII without leading or
// trailing spaces, and quoted in Go syntax otherwise.
func show(s string) string {
	if s == "" || strings.TrimSpace(s) != s {
		return strconv.Quote(s)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return strconv.Quote(s)
		}
	}
	return s
}
