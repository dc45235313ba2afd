// Package story reads and writes the "story" JSON format of the
// hpack-test-case interop corpus (https://github.com/http2jp/hpack-test-case)
// and of the project's RFC 7541 Appendix C data.
//
// A story is one compression context: an ordered sequence of header blocks
// exchanged on one connection. Each case holds the header list and, for
// encoder directories, the encoded header block ("wire") in hex:
//
//	{
//	 "description": "free text",
//	 "cases": [
//	  {
//	   "seqno": 0,
//	   "header_table_size": 4096,
//	   "wire": "8286...",
//	   "headers": [{":method": "GET"}, {":path": "/"}]
//	  }
//	 ]
//	}
//
// Headers are a list of one-entry objects whose order matters; this package
// keeps that order, which a plain map decoding would lose.
package story

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// DefaultHeaderTableSize is the SETTINGS_HEADER_TABLE_SIZE in force before
// any case sets one (RFC 7540 section 6.5.2).
const DefaultHeaderTableSize = 4096

// Header is one header field.
type Header struct{ Name, Value string }

// Case is one header block of a story.
type Case struct {
	// Seqno is the case's position in the story. When the file omits it
	// (as raw-data/ does), Read sets it to the case's index.
	Seqno int
	// Wire is the encoded header block, decoded from hex. It is nil when the
	// case has no wire (raw-data/), and empty but non-nil for "wire": "".
	Wire []byte
	// Headers is the ordered header list.
	Headers []Header
	// HeaderTableSize is the SETTINGS_HEADER_TABLE_SIZE sent and
	// acknowledged just before this case, or -1 when absent (or null).
	// See Story.TableSizes for the size in force at each case.
	HeaderTableSize int
	// DynamicTable is the decoder's dynamic table after the case, newest
	// entry first. It appears in the RFC 7541 appendix data only and is nil
	// when absent.
	DynamicTable []Header
	// DynamicTableSize is the dynamic table's size in RFC 7541 terms after
	// the case, or -1 when absent.
	DynamicTableSize int
}

// Story is one compression context.
type Story struct {
	Description string
	// Context is the raw-data/ "context" field ("request" or "response"),
	// empty when absent.
	Context string
	Cases   []Case
	// Name is the file's base name when read by ReadFile or ReadDir, e.g.
	// "story_00.json"; empty otherwise. It is not written.
	Name string
}

// TableSizes returns, for each case, the header table size in force when the
// case is decoded: a case's HeaderTableSize when set, else the previous
// case's, starting from DefaultHeaderTableSize.
func (s *Story) TableSizes() []int {
	out := make([]int, len(s.Cases))
	cur := DefaultHeaderTableSize
	for i, c := range s.Cases {
		if c.HeaderTableSize >= 0 {
			cur = c.HeaderTableSize
		}
		out[i] = cur
	}
	return out
}

// HasWire reports whether every case has a wire (and there is at least one
// case).
func (s *Story) HasWire() bool {
	for _, c := range s.Cases {
		if c.Wire == nil {
			return false
		}
	}
	return len(s.Cases) > 0
}

// rawStory and rawCase mirror the JSON. Pointers tell absent (or null) from
// zero; headers and dynamic tables are parsed by hand to keep their order and
// to check each element has exactly one key.
type rawStory struct {
	Description *string           `json:"description"`
	Context     *string           `json:"context"`
	Cases       []json.RawMessage `json:"cases"`
}

type rawCase struct {
	Seqno            *int            `json:"seqno"`
	Wire             *string         `json:"wire"`
	Headers          json.RawMessage `json:"headers"`
	HeaderTableSize  *int            `json:"header_table_size"`
	DynamicTable     json.RawMessage `json:"dynamic_table"`
	DynamicTableSize *int            `json:"dynamic_table_size"`
}

// Read parses one story. Errors name the case and what was wrong; use
// ReadFile to have them name the file as well.
func Read(r io.Reader) (*Story, error) {
	return read("story", r)
}

// ReadFile parses the story in the file at path and sets its Name to the
// file's base name. Errors start with the path.
func ReadFile(path string) (*Story, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := read(path, f)
	if err != nil {
		return nil, err
	}
	s.Name = filepath.Base(path)
	return s, nil
}

// ReadDir reads every *.json file in dir, sorted by name.
func ReadDir(dir string) ([]*Story, error) {
	entries, err := os.ReadDir(dir) // sorted by file name
	if err != nil {
		return nil, err
	}
	var out []*Story
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		s, err := ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func read(name string, r io.Reader) (*Story, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var rs rawStory
	if err := dec.Decode(&rs); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty input, want a JSON object", name)
		}
		return nil, fmt.Errorf("%s: invalid story JSON: %w", name, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: unexpected data after the story object", name)
	}
	if rs.Cases == nil {
		return nil, fmt.Errorf("%s: missing \"cases\" list", name)
	}
	s := &Story{Cases: make([]Case, 0, len(rs.Cases))}
	if rs.Description != nil {
		s.Description = *rs.Description
	}
	if rs.Context != nil {
		s.Context = *rs.Context
	}
	for i, raw := range rs.Cases {
		c, err := parseCase(i, raw)
		if err != nil {
			return nil, fmt.Errorf("%s: case %d: %w", name, i, err)
		}
		s.Cases = append(s.Cases, c)
	}
	return s, nil
}

func parseCase(i int, raw json.RawMessage) (Case, error) {
	if string(bytes.TrimSpace(raw)) == "null" {
		return Case{}, errors.New("case is null, want an object")
	}
	var rc rawCase
	if err := json.Unmarshal(raw, &rc); err != nil {
		return Case{}, fmt.Errorf("invalid case JSON: %w", err)
	}
	c := Case{Seqno: i, HeaderTableSize: -1, DynamicTableSize: -1}
	if rc.Seqno != nil {
		c.Seqno = *rc.Seqno
	}
	if rc.Wire != nil {
		w, err := hex.DecodeString(*rc.Wire)
		if err != nil {
			return Case{}, fmt.Errorf("bad hex in \"wire\": %w", err)
		}
		if w == nil {
			w = []byte{}
		}
		c.Wire = w
	}
	if rc.HeaderTableSize != nil {
		if *rc.HeaderTableSize < 0 {
			return Case{}, fmt.Errorf("negative \"header_table_size\" %d", *rc.HeaderTableSize)
		}
		c.HeaderTableSize = *rc.HeaderTableSize
	}
	if rc.DynamicTableSize != nil {
		if *rc.DynamicTableSize < 0 {
			return Case{}, fmt.Errorf("negative \"dynamic_table_size\" %d", *rc.DynamicTableSize)
		}
		c.DynamicTableSize = *rc.DynamicTableSize
	}
	hs, ok, err := parseHeaderList(rc.Headers)
	if err != nil {
		return Case{}, fmt.Errorf("\"headers\": %w", err)
	}
	if !ok {
		return Case{}, errors.New("missing \"headers\" list")
	}
	c.Headers = hs
	dt, ok, err := parseHeaderList(rc.DynamicTable)
	if err != nil {
		return Case{}, fmt.Errorf("\"dynamic_table\": %w", err)
	}
	if ok {
		c.DynamicTable = dt
	}
	return c, nil
}

// parseHeaderList parses a list of one-entry {name: value} objects, keeping
// their order. ok is false when raw is absent or null. A present list is
// returned non-nil, even when empty.
func parseHeaderList(raw json.RawMessage) (hs []Header, ok bool, err error) {
	if len(raw) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, true, err
	}
	if d, isDelim := tok.(json.Delim); !isDelim || d != '[' {
		return nil, true, fmt.Errorf("got %s, want a list of {name: value} objects", describe(tok))
	}
	hs = []Header{}
	for i := 0; dec.More(); i++ {
		tok, err := dec.Token()
		if err != nil {
			return nil, true, fmt.Errorf("element %d: %w", i, err)
		}
		if d, isDelim := tok.(json.Delim); !isDelim || d != '{' {
			return nil, true, fmt.Errorf("element %d: got %s, want a {name: value} object", i, describe(tok))
		}
		var keys []string
		var h Header
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, true, fmt.Errorf("element %d: %w", i, err)
			}
			key := kt.(string) // object keys are always strings
			vt, err := dec.Token()
			if err != nil {
				return nil, true, fmt.Errorf("element %d: %w", i, err)
			}
			v, isString := vt.(string)
			if !isString {
				if d, isDelim := vt.(json.Delim); isDelim && (d == '[' || d == '{') {
					return nil, true, fmt.Errorf("element %d: value of %q is a %s, want a string", i, key, describe(vt))
				}
				return nil, true, fmt.Errorf("element %d: value of %q is %s, want a string", i, key, describe(vt))
			}
			keys = append(keys, key)
			h = Header{Name: key, Value: v}
		}
		if _, err := dec.Token(); err != nil { // the closing '}'
			return nil, true, fmt.Errorf("element %d: %w", i, err)
		}
		if len(keys) != 1 {
			return nil, true, fmt.Errorf("element %d: object has %d keys %q, want exactly 1", i, len(keys), keys)
		}
		hs = append(hs, h)
	}
	return hs, true, nil
}

func describe(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '[':
			return "list"
		case '{':
			return "object"
		}
		return fmt.Sprintf("%q", string(t))
	case nil:
		return "null"
	case bool:
		return fmt.Sprintf("boolean %v", t)
	case float64, json.Number:
		return fmt.Sprintf("number %v", t)
	case string:
		return fmt.Sprintf("string %q", t)
	}
	return fmt.Sprintf("%v", tok)
}

// JSON shapes for writing; field order follows the corpus.
type outStory struct {
	Description string    `json:"description"`
	Context     string    `json:"context,omitempty"`
	Cases       []outCase `json:"cases"`
}

type outCase struct {
	Seqno            int          `json:"seqno"`
	HeaderTableSize  *int         `json:"header_table_size,omitempty"`
	Wire             *string      `json:"wire,omitempty"`
	Headers          []outHeader  `json:"headers"`
	DynamicTable     *[]outHeader `json:"dynamic_table,omitempty"`
	DynamicTableSize *int         `json:"dynamic_table_size,omitempty"`
}

type outHeader Header

func (h outHeader) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	if err := enc.Encode(h.Name); err != nil {
		return nil, err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	b.WriteByte(':')
	if err := enc.Encode(h.Value); err != nil {
		return nil, err
	}
	b.Truncate(b.Len() - 1)
	b.WriteByte('}')
	return b.Bytes(), nil
}

func toOut(where string, hs []Header) ([]outHeader, error) {
	out := make([]outHeader, len(hs))
	for i, h := range hs {
		// encoding/json would silently replace invalid UTF-8 with U+FFFD.
		if !utf8.ValidString(h.Name) {
			return nil, fmt.Errorf("%s %d: name %q is not valid UTF-8, which JSON cannot carry", where, i, h.Name)
		}
		if !utf8.ValidString(h.Value) {
			return nil, fmt.Errorf("%s %d (%q): value %q is not valid UTF-8, which JSON cannot carry", where, i, h.Name, h.Value)
		}
		out[i] = outHeader(h)
	}
	return out, nil
}

// Write writes s in the corpus format as indented JSON: wire as lowercase
// hex and omitted when nil, header_table_size only when >= 0, dynamic_table
// only when non-nil and dynamic_table_size only when >= 0. Name is not
// written. Header names and values must be valid UTF-8.
func (s *Story) Write(w io.Writer) error {
	o := outStory{Description: s.Description, Context: s.Context, Cases: make([]outCase, len(s.Cases))}
	for i, c := range s.Cases {
		oc := outCase{Seqno: c.Seqno}
		if c.HeaderTableSize >= 0 {
			v := c.HeaderTableSize
			oc.HeaderTableSize = &v
		}
		if c.Wire != nil {
			v := hex.EncodeToString(c.Wire)
			oc.Wire = &v
		}
		var err error
		if oc.Headers, err = toOut("header", c.Headers); err != nil {
			return fmt.Errorf("story: case %d: %w", i, err)
		}
		if c.DynamicTable != nil {
			dt, err := toOut("dynamic table entry", c.DynamicTable)
			if err != nil {
				return fmt.Errorf("story: case %d: %w", i, err)
			}
			oc.DynamicTable = &dt
		}
		if c.DynamicTableSize >= 0 {
			v := c.DynamicTableSize
			oc.DynamicTableSize = &v
		}
		o.Cases[i] = oc
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	return enc.Encode(o)
}

// WriteFile writes s to the file at path, creating or truncating it.
func (s *Story) WriteFile(path string) error {
	var b bytes.Buffer
	if err := s.Write(&b); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// SharedDir locates the project's "shared" folder, which sits beside the
// repository's root: it walks up from the working directory to the
// directory whose go.mod is module github.com/metapack/metapack, past the
// go.mod files of nested modules, and returns its sibling "shared" when
// that is a directory. It returns false when there is no such root or no
// shared folder.
func SharedDir() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if isRootModule(filepath.Join(dir, "go.mod")) {
			shared := filepath.Join(filepath.Dir(dir), "shared")
			if fi, err := os.Stat(shared); err == nil && fi.IsDir() {
				return shared, true
			}
			return "", false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// rootModule is the module path of the repository's root go.mod: the
// modules nested in it (interop/..., examples/...) find the same shared
// folder.
const rootModule = "github.com/metapack/metapack"

// isRootModule reports whether the file at path is the root go.mod.
func isRootModule(path string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if mod, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.TrimSpace(mod) == rootModule
		}
	}
	return false
}
