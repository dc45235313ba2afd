package main

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

// runCmd runs metapack with args and an empty standard input and returns
// the exit code and outputs.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCmdStdin(t, "", args...)
}

// runCmdStdin runs metapack with args and standard input stdin and returns
// the exit code and outputs. A panic that escapes run fails the test.
func runCmdStdin(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	defer func() {
		if v := recover(); v != nil {
			t.Fatalf("metapack %q panicked out of run: %v", args, v)
		}
	}()
	code = run(args, strings.NewReader(stdin), &out, &errOut)
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

// TestInternalError checks that a panic in a command exits with
// exitInternal, not with 2 (a usage error, and the exit code of a Go panic),
// and prints one line naming the panic, with the stack only when
// METAPACK_TRACEBACK asks for it.
func TestInternalError(t *testing.T) {
	var nilMap map[string]int
	var index []int
	tests := []struct {
		name      string
		panicWith func()
		args      []string // after the command's name; "help" runs it as help does
		traceback string   // METAPACK_TRACEBACK
		want      string   // the first line of stderr
	}{
		{"string", func() { panic("boom") }, nil, "", "metapack: internal error: panic: boom (a bug in metapack; METAPACK_TRACEBACK=1 prints the stack)"},
		{"error", func() { panic(errors.New("bad state")) }, []string{"x", "--flag"}, "", "metapack: internal error: panic: bad state (a bug in metapack; METAPACK_TRACEBACK=1 prints the stack)"},
		{"runtime error", func() { nilMap["x"] = 1 }, nil, "", "metapack: internal error: panic: assignment to entry in nil map (a bug in metapack; METAPACK_TRACEBACK=1 prints the stack)"},
		{"index", func() { _ = index[len(index)+1] }, nil, "", "metapack: internal error: panic: runtime error: index out of range [1] with length 0 (a bug in metapack; METAPACK_TRACEBACK=1 prints the stack)"},
		{"multi-line value", func() { panic("line 1\nline 2") }, nil, "", `metapack: internal error: panic: "line 1\nline 2" (a bug in metapack; METAPACK_TRACEBACK=1 prints the stack)`},
		{"via help", func() { panic(42) }, []string{"help"}, "", "metapack: internal error: panic: 42 (a bug in metapack; METAPACK_TRACEBACK=1 prints the stack)"},
		{"traceback", func() { panic("boom") }, nil, "1", "metapack: internal error: panic: boom (a bug in metapack; METAPACK_TRACEBACK=1 prints the stack)"},
	}
	saved := commands
	t.Cleanup(func() { commands = saved })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(tracebackEnv, tt.traceback)
			commands = append(slices.Clip(saved), command{"panicky", "panics", func([]string, io.Reader, io.Writer, io.Writer) int {
				tt.panicWith()
				return 0
			}})
			args := append([]string{"panicky"}, tt.args...)
			if slices.Equal(tt.args, []string{"help"}) {
				args = []string{"help", "panicky"}
			}
			code, stdout, stderr := runCmd(t, args...)
			if code != exitInternal {
				t.Errorf("exit code %d, want %d", code, exitInternal)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			first, rest, _ := strings.Cut(stderr, "\n")
			if first != tt.want {
				t.Errorf("stderr's first line\n%q, want\n%q", first, tt.want)
			}
			if tt.traceback == "" && rest != "" {
				t.Errorf("stderr has more than one line:\n%s", stderr)
			}
			// The stack is the panicking goroutine's, down to the command.
			if tt.traceback != "" && (!strings.HasPrefix(rest, "goroutine ") || !strings.Contains(rest, "TestInternalError")) {
				t.Errorf("with %s=%s, stderr lacks the stack:\n%s", tracebackEnv, tt.traceback, stderr)
			}
		})
	}
}
