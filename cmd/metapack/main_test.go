package main

import (
	"bytes"
	"strings"
	"testing"
)

// runCmd runs metapack with args and returns the exit code and outputs.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestHelp(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		// wantOut must appear in stdout, or in stderr when inStderr is set.
		wantOut  []string
		inStderr bool
	}{
		{"-h", []string{"-h"}, 0, []string{"Usage:", "metapack <command>", "inflate", "Commands:"}, false},
		{"--help", []string{"--help"}, 0, []string{"Usage:", "inflate"}, false},
		{"help", []string{"help"}, 0, []string{"Usage:", "inflate"}, false},
		{"no args", nil, 2, []string{"Usage:", "inflate"}, true},
		{"help inflate", []string{"help", "inflate"}, 0, []string{"metapack inflate [--check] [-o DIR] FILE_OR_DIR...", "Exit codes:", "Examples:"}, false},
		{"inflate -h", []string{"inflate", "-h"}, 0, []string{"metapack inflate [--check] [-o DIR] FILE_OR_DIR...", "--check", "-o DIR", "2  usage error or bad input", "1 MiB"}, false},
		{"inflate --help", []string{"inflate", "--help"}, 0, []string{"Exit codes:"}, false},
		{"help unknown", []string{"help", "frob"}, 2, []string{`unknown command "frob"`}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(t, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tt.wantCode, stderr)
			}
			got, other := stdout, stderr
			if tt.inStderr {
				got, other = stderr, stdout
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %q:\n%s", w, got)
				}
			}
			if other != "" {
				t.Errorf("unexpected output on the other stream:\n%s", other)
			}
		})
	}
}

func TestUnknownCommand(t *testing.T) {
	for _, args := range [][]string{{"frob"}, {"frob", "x"}, {"-x"}, {"Inflate"}} {
		code, stdout, stderr := runCmd(t, args...)
		if code != 2 {
			t.Errorf("%q: exit code %d, want 2", args, code)
		}
		if stdout != "" {
			t.Errorf("%q: stdout %q, want nothing", args, stdout)
		}
		want := "metapack: unknown command \"" + args[0] + "\"; run 'metapack help' for the list\n"
		if stderr != want {
			t.Errorf("%q: stderr %q, want %q", args, stderr, want)
		}
	}
}

func TestCommandsHaveSummaries(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range commands {
		if c.name == "" || c.summary == "" || c.run == nil {
			t.Errorf("incomplete command %+v", c)
		}
		if seen[c.name] {
			t.Errorf("duplicate command %q", c.name)
		}
		seen[c.name] = true
	}
}
