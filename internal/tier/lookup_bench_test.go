package tier

import "testing"

// BenchmarkLookup compares the generated perfect hash with a Go map over the
// same strings, on hits and misses from byte slices.
func BenchmarkLookup(b *testing.B) {
	m := make(map[string]*Atom, len(atoms))
	for i := range atoms {
		m[atoms[i].s] = &atoms[i]
	}
	inputs := [][]byte{[]byte(":path"), []byte("content-type"), []byte("grpc-timeout"), []byte("application/grpc"), []byte("x-request-id"), []byte("user-agent")}
	total := 0
	for _, in := range inputs {
		total += len(in)
	}
	b.Run("impl=phash", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for _, in := range inputs {
				Lookup(in)
			}
		}
	})
	b.Run("impl=map", func(b *testing.B) {
		b.SetBytes(int64(total))
		b.ReportAllocs()
		for b.Loop() {
			for _, in := range inputs {
				_ = m[string(in)]
			}
		}
	})
}
