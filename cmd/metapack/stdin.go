package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/metapack/metapack/internal/story"
)

// stdinOperand is the operand that stands for standard input.
const stdinOperand = "-"

// checkStdinOnce returns an error when operands name standard input more
// than once, since it can be read only once.
func checkStdinOnce(operands []string) error {
	n := 0
	for _, op := range operands {
		if op == stdinOperand {
			n++
		}
	}
	if n > 1 {
		return fmt.Errorf("%q (standard input) given %d times, want at most once", stdinOperand, n)
	}
	return nil
}

// readStdinStories reads the stories on standard input r: one JSON story,
// or several one after another (as inflate and deflate write them to
// standard output). One story is named "stdin" and written under -o as
// stdin.json; several are named stdin[0], stdin[1]... and written as
// stdin_00.json, stdin_01.json... Errors start with the name.
func readStdinStories(r io.Reader) ([]input, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("stdin: %w", err)
	}
	var raws []json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: invalid story JSON: %w", stdinStoryName(len(raws), len(raws)+1), err)
		}
		raws = append(raws, raw)
	}
	if len(raws) == 0 {
		return nil, errors.New("stdin: empty input, want one or more JSON stories")
	}
	inputs := make([]input, len(raws))
	for i, raw := range raws {
		name := stdinStoryName(i, len(raws))
		s, err := story.Read(bytes.NewReader(raw))
		if err != nil {
			// story.Read names the story "story"; name it as we do.
			return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "story: "))
		}
		base := "stdin.json"
		if len(raws) > 1 {
			base = fmt.Sprintf("stdin_%02d.json", i)
		}
		s.Name = base
		inputs[i] = input{path: name, story: s, stdin: true}
	}
	return inputs, nil
}

// stdinStoryName names story i of the n stories on standard input.
func stdinStoryName(i, n int) string {
	if n == 1 {
		return "stdin"
	}
	return fmt.Sprintf("stdin[%d]", i)
}

// expandStdin returns operands with the operand "-" replaced by the lines
// of standard input r, in place: one operand per line that is not blank. A
// line's trailing "\r" is dropped.
func expandStdin(operands []string, r io.Reader) ([]string, error) {
	var out []string
	for _, op := range operands {
		if op != stdinOperand {
			out = append(out, op)
			continue
		}
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<30) // a line is one block or field: no length limit of its own
		for sc.Scan() {
			line := strings.TrimSuffix(sc.Text(), "\r")
			if strings.TrimSpace(line) != "" {
				out = append(out, line)
			}
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("stdin: %w", err)
		}
	}
	return out, nil
}
