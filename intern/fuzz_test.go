package intern

import (
	"strings"
	"sync"
	"testing"
)

// FuzzIntern interns the fuzzer's strings from several goroutines at once
// into a small table.
func FuzzIntern(f *testing.F) {
	f.Add("content-type\nx-custom\nx-custom\n")
	f.Fuzz(func(t *testing.T, text string) {
		strs := strings.Split(text, "\n")
		limits := Limits{MaxEntries: 8, MaxBytes: 1024, MaxLen: 32}
		tab := New(limits)
		const workers = 4
		got := make([][]Handle, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, s := range strs {
					h, _ := Make(tab, []byte(s))
					got[w] = append(got[w], h)
				}
			}()
		}
		wg.Wait()
		canon := map[string]Handle{}
		seen := map[Handle]string{}
		for w := range workers {
			for i, h := range got[w] {
				if h.Atom() == nil {
					continue // not interned: allowed once the table is full
				}
				s := strs[i]
				if h.Atom().String() != s {
					t.Fatalf("handle for %q holds %q", s, h.Atom().String())
				}
				if c, ok := canon[s]; ok && c != h {
					t.Fatalf("two handles for %q", s)
				}
				canon[s] = h
				if other, ok := seen[h]; ok && other != s {
					t.Fatalf("one handle for %q and %q", s, other)
				}
				seen[h] = s
			}
		}
		if tab.Len() > limits.MaxEntries || int(tab.bytes.Load()) > limits.MaxBytes {
			t.Fatalf("table over its bounds: %d entries, %d bytes", tab.Len(), int(tab.bytes.Load()))
		}
		// Handles taken earlier stay valid: look them up again.
		for s, h := range canon {
			if again, ok := Make(tab, s); !ok || again != h {
				t.Fatalf("%q: handle changed", s)
			}
		}
	})
}
