package guardpage

import (
	"os"
	"os/exec"
	"testing"
)

// TestBuffersSitAgainstTheGuards checks the layout: the buffers have the
// asked length and capacity, and are writable to their last byte.
func TestBuffersSitAgainstTheGuards(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 4095, 4096, 4097, 10000} {
		b := Before(t, n)
		a := After(t, n)
		if len(b) != n || cap(b) != n || len(a) != n || cap(a) != n {
			t.Fatalf("n=%d: Before len %d cap %d, After len %d cap %d", n, len(b), cap(b), len(a), cap(a))
		}
		for i := range b {
			b[i], a[i] = byte(i), byte(i)
		}
	}
}

// TestGuardFaults checks that the guards work: a child process that reads
// one byte past a Before buffer, or one byte before an After buffer, dies.
func TestGuardFaults(t *testing.T) {
	if mode := os.Getenv("GUARDPAGE_FAULT"); mode != "" {
		var b []byte
		var off int
		if mode == "before" {
			b, off = Before(t, 5), 5
		} else {
			b, off = After(t, 5), -1
		}
		println(readAt(b, off)) // must fault
		os.Exit(0)
	}
	if !Supported {
		t.Skip("guardpage: guard pages need Linux; skipping")
	}
	for _, mode := range []string{"before", "after"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestGuardFaults$")
		cmd.Env = append(os.Environ(), "GUARDPAGE_FAULT="+mode)
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Errorf("%s: reading outside the buffer did not fault:\n%s", mode, out)
		}
	}
}
