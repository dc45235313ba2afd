package story

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// AppendixStory is one sequence of RFC 7541 Appendix C's examples, decoded
// by one decoder whose table size is TableSize.
type AppendixStory struct {
	Name      string
	TableSize uint32
	Cases     []AppendixCase
}

// AppendixCase is one header block of an AppendixStory: its wire bytes,
// the fields it decodes to, and the dynamic table after it (newest first)
// with its RFC 7541 size.
type AppendixCase struct {
	Wire      []byte
	Headers   [][2]string
	Table     [][2]string
	TableSize uint32
}

// ReadAppendixC reads the project's transcription of RFC 7541 Appendix C
// (testdata/rfc7541-appendix-c.txt; its header comment gives the format).
func ReadAppendixC(path string) ([]AppendixStory, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var stories []AppendixStory
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || text[0] == '#' {
			continue
		}
		word, rest, _ := strings.Cut(text, " ")
		var cur *AppendixCase
		if n := len(stories); n > 0 && len(stories[n-1].Cases) > 0 {
			s := &stories[n-1]
			cur = &s.Cases[len(s.Cases)-1]
		}
		if cur == nil && word != "story" && word != "case" || len(stories) == 0 && word == "case" {
			return nil, fmt.Errorf("%s:%d: %q outside a case", path, line, word)
		}
		pair := func() [2]string { n, v, _ := strings.Cut(rest, " "); return [2]string{n, v} }
		switch word {
		case "story":
			name, size, _ := strings.Cut(rest, " ")
			n, err := strconv.ParseUint(size, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, line, err)
			}
			stories = append(stories, AppendixStory{Name: name, TableSize: uint32(n)})
		case "case":
			s := &stories[len(stories)-1]
			s.Cases = append(s.Cases, AppendixCase{})
		case "wire":
			if cur.Wire, err = hex.DecodeString(rest); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, line, err)
			}
		case "header":
			cur.Headers = append(cur.Headers, pair())
		case "table":
			cur.Table = append(cur.Table, pair())
		case "tablesize":
			n, err := strconv.ParseUint(rest, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, line, err)
			}
			cur.TableSize = uint32(n)
		default:
			return nil, fmt.Errorf("%s:%d: unknown word %q", path, line, word)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(stories) == 0 {
		return nil, fmt.Errorf("%s: no examples", path)
	}
	return stories, nil
}
