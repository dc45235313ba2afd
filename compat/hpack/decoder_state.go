package hpack

import (
	"runtime"
	"sync"

	mhpack "github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/intern"
)

// decState is the memory a Decoder decodes with: metapack's Decoder and
// its tables, and the string cache. When a Decoder becomes garbage, its
// decState goes back to statePool, so that a server whose connections
// come and go reuses their memory rather than allocating and collecting
// tens of KiB per connection. newDecState resets it before reuse: nothing
// one connection sent reaches the next through it.
type decState struct {
	d       *mhpack.Decoder
	strings *strCache
}

var statePool sync.Pool

// internLimits bound the table each Decoder interns its peer's names and
// low-cardinality values in: small, since it is one per connection.
var internLimits = intern.Limits{MaxEntries: 64, MaxBytes: 8 << 10, MaxLen: 128}

// newDecState returns a decState for a new Decoder, recycled when the
// pool has one.
func newDecState(maxDynamicTableSize uint32) *decState {
	s, _ := statePool.Get().(*decState)
	if s == nil {
		s = &decState{
			d:       mhpack.NewDecoder(maxDynamicTableSize),
			strings: newStrCache(),
		}
		s.configure()
	} else {
		s.reuse(maxDynamicTableSize)
	}
	return s
}

// reuse empties a pooled state of everything its last connection sent and
// configures it anew, for a Decoder whose peer may use maxDynamicTableSize
// bytes of table. Reset takes the table's maximum from the setting, as
// NewDecoder does.
func (s *decState) reuse(maxDynamicTableSize uint32) {
	s.d.SetAllowedMaxDynamicTableSize(maxDynamicTableSize)
	s.d.Reset()
	s.strings.reset()
	s.configure()
}

// configure gives s's Decoder x/net's limits, no list or field limit
// (x/net's callers enforce MAX_HEADER_LIST_SIZE with SetEmitEnabled) and
// no string limit, and a new interner of its own.
func (s *decState) configure() {
	s.d.SetMaxFields(0)
	s.d.SetMaxHeaderListSize(0)
	s.d.SetMaxStringLength(0)
	s.d.SetInterner(intern.New(internLimits))
}

// recycle registers d's state to go back to the pool once d is garbage;
// the state does not refer to d, so d can become garbage.
func recycle(d *Decoder) {
	runtime.AddCleanup(d, release, d.decState)
}

// release is what a Decoder's cleanup does with its state: pool it. A
// variable, so that a test can see the cleanup run.
var release = func(s *decState) { statePool.Put(s) }
