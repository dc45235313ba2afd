package intern

import (
	"math/rand/v2"
	"testing"

	"github.com/cespare/xxhash/v2"
)

func TestSeededHashMatchesXXHash(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 300)
	for i := range buf {
		buf[i] = byte(r.Uint32())
	}
	seeds := []uint64{0, 1, prime1, ^uint64(0), r.Uint64(), r.Uint64()}
	for _, seed := range seeds {
		for n := 0; n <= len(buf); n++ {
			b := buf[:n]
			d := xxhash.NewWithSeed(seed)
			d.Write(b)
			if got, want := seededHash(b, seed), d.Sum64(); got != want {
				t.Fatalf("seededHash(len %d, seed %#x) = %#x, want %#x", n, seed, got, want)
			}
		}
	}
	// Seed 0 is the plain xxhash the static tier uses.
	if got, want := seededHash([]byte(":path"), 0), xxhash.Sum64String(":path"); got != want {
		t.Errorf("seededHash(:path, 0) = %#x, want %#x", got, want)
	}
}

func TestSeedsDiffer(t *testing.T) {
	a, b := New(DefaultLimits), New(DefaultLimits)
	if a.seed == b.seed {
		t.Errorf("two tables share seed %#x", a.seed)
	}
}

func BenchmarkSeededHash(b *testing.B) {
	for _, s := range []string{"x-request-as", "grpc-go/1.72.0 (linux; amd64) custom/3.1"} {
		buf := []byte(s)
		b.Run("size="+itoa(len(s))+"B", func(b *testing.B) {
			b.SetBytes(int64(len(buf)))
			var x uint64
			for b.Loop() {
				x += seededHash(buf, 12345)
			}
			sinkInt = int(x)
		})
	}
}
