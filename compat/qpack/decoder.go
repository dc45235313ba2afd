package qpack

import (
	"io"
	"sync"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/mdelem"
	mqpack "github.com/metapack/metapack/qpack"
)

// A Decoder decodes QPACK field sections that use the static table only.
// It holds no state: one Decoder may decode the sections of every stream
// of a connection, from many goroutines at once.
type Decoder struct{}

// DecodeFunc returns the next field of the section it was made for. Call
// it until it returns io.EOF, after the last field; any other error is a
// decoding error, returned after the fields before it.
type DecodeFunc func() (HeaderField, error)

// NewDecoder returns a Decoder.
func NewDecoder() *Decoder { return &Decoder{} }

// Decode returns a function that decodes the fields of the section p, a
// HEADERS frame's payload. The section is read at the first call, and p
// must not change until then.
func (d *Decoder) Decode(p []byte) DecodeFunc {
	r := &sectionReader{p: p}
	return r.next
}

// sectionReader hands out one section's fields from a borrowed decoder's
// batch, which goes back to the pool after the last.
type sectionReader struct {
	p       []byte
	started bool
	st      *decodeState
	i       int
	err     error
}

func (r *sectionReader) next() (HeaderField, error) {
	if !r.started {
		r.started = true
		r.decode()
	}
	if st := r.st; st != nil {
		if r.i < st.batch.Len() {
			hf := HeaderField{Name: st.strs[2*r.i], Value: st.strs[2*r.i+1]}
			r.i++
			return hf, nil
		}
		r.st = nil
		st.release()
	}
	if r.err != nil {
		return HeaderField{}, r.err
	}
	return HeaderField{}, io.EOF
}

// decode decodes the section with a borrowed decoder, and sets the error,
// in quic-go/qpack's terms, that ends it after the fields before it.
func (r *sectionReader) decode() {
	p := r.p
	r.p = nil
	if r.err = checkBase(p); r.err != nil {
		return
	}
	st := decoders.Get().(*decodeState)
	st.batch.Reset()
	if err := st.dec.Decode(st.batch, 0, p); err != nil {
		r.err = quicgoError(p, err)
		// The Decoder refuses every section after a connection error: it
		// is dropped, and the pool makes another.
		st.dec = nil
	}
	r.st = st
	st.strs = st.batch.AppendStrings(st.strs[:0])
}

// decodeState is a static-only metapack Decoder with the buffers one
// section needs, borrowed from the pool for one section.
type decodeState struct {
	dec   *mqpack.Decoder
	batch *mdelem.Batch
	strs  []string // each field's name and value, the caller's to keep
}

var decoders = sync.Pool{New: func() any { return newDecodeState() }}

// internLimits bound the names each pooled decoder interns.
var internLimits = intern.Limits{MaxEntries: 64, MaxBytes: 8 << 10, MaxLen: 128}

func newDecodeState() *decodeState {
	dec := mqpack.NewDecoder(0, 0)
	// quic-go/qpack has no limits of its own: its callers bound the
	// section (http3 checks SETTINGS_MAX_FIELD_SECTION_SIZE), and every
	// string is bounded by the section's bytes.
	dec.SetMaxFields(-1)
	dec.SetMaxFieldSectionSize(-1)
	dec.SetMaxStringLength(-1)
	dec.SetInterner(intern.New(internLimits))
	return &decodeState{dec: dec, batch: mdelem.NewBatch(16, 1024)}
}

// release returns st to the pool, unless its decoder failed or its
// buffers grew past what a pool should keep.
func (st *decodeState) release() {
	if st.dec != nil && st.batch.Size() <= 64<<10 && cap(st.strs) <= 1024 {
		decoders.Put(st)
	}
}
