package hpack

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/internal/workload"
	"github.com/metapack/metapack/mdelem"
)

// Test helpers of the Encoder's tests; the enc prefix keeps them apart from
// the decoder's.

// encGRPCLists and encGRPCSeed are the gRPC workload the compression test
// and the benchmarks use.
const (
	encGRPCLists = 3000
	encGRPCSeed  = 1
)

// encRawStories returns the header lists of the hpack-test-case raw-data
// stories, one slice of lists per story, or skips when the corpus is
// absent.
func encRawStories(tb testing.TB) [][][]story.Header {
	tb.Helper()
	out, err := encReadRawStories()
	if err != nil {
		tb.Fatal(err)
	}
	if out == nil {
		story.Shared(tb, "hpack-test-case", "raw-data") // skips when absent
		tb.Fatal("../shared/hpack-test-case/raw-data holds no story")
	}
	return out
}

// encReadRawStories reads the raw-data stories; nil when absent.
func encReadRawStories() ([][][]story.Header, error) {
	shared, ok := story.SharedDir()
	if !ok {
		return nil, nil
	}
	dir := filepath.Join(shared, "hpack-test-case", "raw-data")
	if _, err := os.Stat(dir); err != nil {
		return nil, nil
	}
	stories, err := story.ReadDir(dir)
	if err != nil || len(stories) == 0 {
		return nil, err
	}
	out := make([][][]story.Header, len(stories))
	for i, s := range stories {
		for _, c := range s.Cases {
			out[i] = append(out[i], c.Headers)
		}
	}
	return out, nil
}

// encGRPCStory returns the gRPC workload as one story.
func encGRPCStory() [][]story.Header {
	return workload.GRPC(encGRPCLists, encGRPCSeed)
}

// encBatch returns hs as a batch.
func encBatch(hs []story.Header) *mdelem.Batch {
	b := mdelem.NewBatch(len(hs), 0)
	for _, h := range hs {
		b.Append(mdelem.From(mdelem.BorrowString(h.Name), mdelem.BorrowString(h.Value)))
	}
	return b
}

// encBatches returns one batch per header list.
func encBatches(lists [][]story.Header) []*mdelem.Batch {
	out := make([]*mdelem.Batch, len(lists))
	for i, hs := range lists {
		out[i] = encBatch(hs)
	}
	return out
}

// encHeaderBytes returns the sum of len(name)+len(value) over all fields.
func encHeaderBytes(stories ...[][]story.Header) int {
	n := 0
	for _, lists := range stories {
		for _, hs := range lists {
			for _, h := range hs {
				n += len(h.Name) + len(h.Value)
			}
		}
	}
	return n
}

// dynamicTableSize, dynamicTableLen and dynamicEntry show the encoder's
// dynamic table to the tests: its RFC 7541 size and maximum, its number
// of entries, and entry i (0 is the newest), ok false past the end.
func (e *Encoder) dynamicTableSize() (size, max uint32) { return e.table.Size(), e.table.Max() }

func (e *Encoder) dynamicTableLen() int { return int(e.table.Count()) }

func (e *Encoder) dynamicEntry(i int) (name, value string, ok bool) {
	if i < 0 || i >= int(e.table.Count()) {
		return "", "", false
	}
	ent := e.table.At(uint32(i))
	name, value = e.table.Strings(ent)
	return name, value, true
}

// indexPolicy picks how to send a field, for tests that fix the
// representations: indexDefault leaves a field to the default policy, and
// a Sensitive field is never-indexed whatever it says.
type indexPolicy func(f mdelem.Field) indexing

// policyEncoder is an Encoder whose representations policy picks (nil:
// the default policy).
type policyEncoder struct {
	*Encoder
	policy indexPolicy
}

func (e policyEncoder) how(f mdelem.Field) indexing {
	if e.policy == nil {
		return indexDefault
	}
	return e.policy(f)
}

// AppendBlock is Encoder.AppendBlock under the policy.
func (e policyEncoder) AppendBlock(dst []byte, b *mdelem.Batch) []byte {
	if e.updatePending {
		dst = e.appendSizeUpdates(dst)
	}
	if b == nil {
		return dst
	}
	for _, f := range b.All() {
		dst = e.appendField(dst, &f, e.how(f))
	}
	return dst
}

// AppendField is Encoder.AppendField under the policy.
func (e policyEncoder) AppendField(dst []byte, f mdelem.Field) []byte {
	return e.appendOne(dst, f, e.how(f))
}
