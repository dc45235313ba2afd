package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// staticEntry is one row of RFC 7541 Appendix A.
type staticEntry struct{ name, value string }

// grpcMetadata is the list of gRPC well-known keys and common values.
type grpcMetadata struct{ keys, values []string }

// huffmanCode is RFC 7541 Appendix B: code[sym] right-aligned, length in bits.
type huffmanCode struct {
	code [257]uint32
	bits [257]uint8
}

// dataLines returns the non-blank, non-comment lines of a data file.
func dataLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lines = append(lines, line)
	}
	return lines, sc.Err()
}

// readStaticTable reads a static table of want entries in index order:
// RFC 7541's (61) or RFC 9204's (99).
func readStaticTable(path string, want int) ([]staticEntry, error) {
	lines, err := dataLines(path)
	if err != nil {
		return nil, err
	}
	if len(lines) != want {
		return nil, fmt.Errorf("%s: %d entries, want %d", path, len(lines), want)
	}
	table := make([]staticEntry, len(lines))
	for i, line := range lines {
		name, value, _ := strings.Cut(line, " ")
		table[i] = staticEntry{name, value}
	}
	return table, nil
}

func readGRPCMetadata(path string) (grpcMetadata, error) {
	var md grpcMetadata
	lines, err := dataLines(path)
	if err != nil {
		return md, err
	}
	for _, line := range lines {
		kind, s, ok := strings.Cut(line, " ")
		switch {
		case ok && kind == "key":
			md.keys = append(md.keys, s)
		case ok && kind == "value":
			md.values = append(md.values, s)
		default:
			return md, fmt.Errorf("%s: bad line %q", path, line)
		}
	}
	return md, nil
}

func readHuffmanCode(path string) (*huffmanCode, error) {
	lines, err := dataLines(path)
	if err != nil {
		return nil, err
	}
	if len(lines) != 257 {
		return nil, fmt.Errorf("%s: %d symbols, want 257", path, len(lines))
	}
	h := new(huffmanCode)
	for i, line := range lines {
		symText, bitsText, _ := strings.Cut(line, " ")
		sym, err := strconv.Atoi(symText)
		if err != nil || sym != i {
			return nil, fmt.Errorf("%s: line %q: want symbol %d", path, line, i)
		}
		code, err := strconv.ParseUint(bitsText, 2, 32)
		if err != nil || len(bitsText) > 30 {
			return nil, fmt.Errorf("%s: line %q: bad code", path, line)
		}
		h.code[sym] = uint32(code)
		h.bits[sym] = uint8(len(bitsText))
	}
	return h, nil
}
