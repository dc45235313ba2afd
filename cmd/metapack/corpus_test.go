package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/internal/workload"
)

// update rewrites the embedded corpus and the golden files instead of
// comparing with them.
var update = flag.Bool("update", false, "rewrite corpus/ and testdata/*.golden")

// The embedded corpus's synthetic workloads: header lists and seed.
const (
	corpusGRPCLists    = 600
	corpusBrowserLists = 300
	corpusSeed         = 1
)

// rfcExamples is the project's transcription of RFC 7541 Appendix C.
const rfcExamples = "../../testdata/rfc7541-appendix-c.txt"

// TestEmbeddedCorpus regenerates the embedded corpus and fails, naming the
// file, when corpus/ differs; with -update it rewrites corpus/.
func TestEmbeddedCorpus(t *testing.T) {
	want, err := generateCorpus()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		old, _ := filepath.Glob("corpus/*.json")
		for _, f := range old {
			os.Remove(f)
		}
		for name, data := range want {
			if err := os.WriteFile(filepath.Join("corpus", name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, _ := filepath.Glob("corpus/*.json")
	total := 0
	for _, path := range got {
		name := filepath.Base(path)
		data, _ := os.ReadFile(path)
		total += len(data)
		if _, ok := want[name]; !ok {
			t.Errorf("cmd/metapack/corpus/%s is not generated any more: run go generate ./cmd/metapack", name)
		} else if !bytes.Equal(data, want[name]) {
			t.Errorf("cmd/metapack/corpus/%s is stale: run go generate ./cmd/metapack", name)
		}
	}
	if len(got) != len(want) {
		t.Errorf("cmd/metapack/corpus has %d files, the generator writes %d: run go generate ./cmd/metapack", len(got), len(want))
	}
	if total > 1<<20 {
		t.Errorf("embedded corpus is %d bytes; keep it under 1 MiB", total)
	}
	stories, err := embeddedCorpus()
	if err != nil {
		t.Fatal(err)
	}
	if len(stories) != len(got) {
		t.Errorf("embeddedCorpus returned %d stories, corpus/ holds %d files", len(stories), len(got))
	}
}

// generateCorpus returns the embedded corpus's files by name.
func generateCorpus() (map[string][]byte, error) {
	stories := map[string]*story.Story{
		"grpc.json":    workload.GRPCStory(corpusGRPCLists, corpusSeed),
		"browser.json": workload.BrowserStory(corpusBrowserLists, corpusSeed),
	}
	for name, s := range stories {
		for i, w := range encodeStoryXnet(s) {
			s.Cases[i].Wire = w
		}
		s.Description += ", encoded by golang.org/x/net/http2/hpack"
		stories[name] = s
	}
	rfc, err := readRFCExamples(rfcExamples)
	if err != nil {
		return nil, err
	}
	for _, s := range rfc {
		stories["rfc7541-"+strings.ToLower(s.Name)+".json"] = s
	}
	files := make(map[string][]byte)
	for name, s := range stories {
		var b bytes.Buffer
		if err := s.Write(&b); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		files[name] = b.Bytes()
	}
	return files, nil
}

// readRFCExamples parses the project's transcription of the RFC 7541
// Appendix C examples into stories named after the examples ("C.3"). Only
// the wires, the headers and the table size are kept.
func readRFCExamples(path string) ([]*story.Story, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var (
		stories []*story.Story
		cur     *story.Story
		size    int // cur's table size, set on its first case
	)
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		word, rest, _ := strings.Cut(text, " ")
		var last *story.Case
		if cur != nil && len(cur.Cases) > 0 {
			last = &cur.Cases[len(cur.Cases)-1]
		}
		switch {
		case text == "" || strings.HasPrefix(text, "#") || word == "table" || word == "tablesize":
			continue
		case word == "story":
			name, n, _ := strings.Cut(rest, " ")
			if size, err = strconv.Atoi(n); err == nil {
				cur = &story.Story{Name: name, Description: "RFC 7541 Appendix " + name + " example"}
				stories = append(stories, cur)
				continue
			}
		case word == "case" && cur != nil:
			c := story.Case{Seqno: len(cur.Cases), HeaderTableSize: -1, DynamicTableSize: -1}
			if c.Seqno == 0 {
				c.HeaderTableSize = size
			}
			cur.Cases = append(cur.Cases, c)
			continue
		case word == "wire" && last != nil:
			if last.Wire, err = hex.DecodeString(rest); err == nil {
				continue
			}
		case word == "header" && last != nil:
			name, value, _ := strings.Cut(rest, " ")
			last.Headers = append(last.Headers, story.Header{Name: name, Value: value})
			continue
		}
		return nil, fmt.Errorf("%s:%d: cannot parse %q", path, line, text)
	}
	return stories, sc.Err()
}
