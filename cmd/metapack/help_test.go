package main

import (
	"strings"
	"testing"
)

// TestEveryCommandHelp checks that each command's -h prints its usage,
// exit codes and examples, and that metapack -h lists it and the exit codes.
func TestEveryCommandHelp(t *testing.T) {
	_, top, _ := runCmd(t, "-h")
	for _, want := range []string{"Exit codes, for every command:", "0  success", "1  the operation failed", "2  usage error or bad input", "70 internal error"} {
		if !strings.Contains(top, want) {
			t.Errorf("metapack -h lacks %q", want)
		}
	}
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(top, "\t"+c.name+" ") {
				t.Errorf("metapack -h does not list %s", c.name)
			}
			for _, flag := range []string{"-h", "--help"} {
				code, stdout, stderr := runCmd(t, c.name, flag)
				if code != 0 || stderr != "" {
					t.Errorf("%s %s: exit code %d, stderr %q", c.name, flag, code, stderr)
				}
				for _, want := range []string{"Usage: metapack " + c.name, "Exit codes:", "  2  usage error", "  70 internal error", "Examples:\n  metapack " + c.name} {
					if !strings.Contains(stdout, want) {
						t.Errorf("%s %s: help lacks %q", c.name, flag, want)
					}
				}
			}
			code, stdout, stderr := runCmd(t, c.name, "--no-such-flag")
			if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "metapack "+c.name+": flag provided but not defined: -no-such-flag\n") {
				t.Errorf("bad flag: exit code %d, stdout %q, stderr %q", code, stdout, stderr)
			}
		})
	}
}
