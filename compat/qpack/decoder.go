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

// sectionReader hands out one section's fields, with room for those of
// most sections in the same allocation.
type sectionReader struct {
	p       []byte
	started bool
	fields  []HeaderField
	err     error
	room    [12]HeaderField
}

func (r *sectionReader) next() (HeaderField, error) {
	if !r.started {
		r.started = true
		r.fields, r.err = decodeSection(r.room[:0], r.p)
		r.p = nil
	}
	if len(r.fields) > 0 {
		f := r.fields[0]
		r.fields = r.fields[1:]
		return f, nil
	}
	if r.err != nil {
		return HeaderField{}, r.err
	}
	return HeaderField{}, io.EOF
}

// decodeState is a static-only metapack Decoder with the buffers one
// section needs, borrowed from decoders for one section.
type decodeState struct {
	dec   *mqpack.Decoder
	batch *mdelem.Batch
	text  []byte // the strings with no atom, end to end
	ends  []int  // where each field's name and value end in text (-1: an atom)
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

// decodeSection appends the fields of section p to dst, and returns the
// error, in quic-go/qpack's terms, that ends it early.
func decodeSection(dst []HeaderField, p []byte) ([]HeaderField, error) {
	if err := checkBase(p); err != nil {
		return nil, err
	}
	st := decoders.Get().(*decodeState)
	st.batch.Reset()
	err := st.dec.Decode(st.batch, 0, p)
	fields := st.appendFields(dst)
	if err != nil {
		err = quicgoError(p, err)
		// The Decoder refuses every section after a connection error;
		// this one is dropped, and the pool makes another.
		st.dec = nil
	}
	if st.dec != nil && st.batch.Size() <= 64<<10 {
		decoders.Put(st)
	}
	return fields, err
}

// appendFields appends the batch's fields to dst as HeaderFields,
// allocating one string for all the names and values that are not atoms.
func (st *decodeState) appendFields(dst []HeaderField) []HeaderField {
	n := st.batch.Len()
	if n == 0 {
		return dst
	}
	st.text, st.ends = st.text[:0], st.ends[:0]
	for _, f := range st.batch.All() {
		st.ends = append(st.ends, st.appendText(f.Name), st.appendText(f.Value))
	}
	text := string(st.text)
	start := 0
	var hf HeaderField
	for i, f := range st.batch.All() {
		hf.Name, start = st.stringOf(f.Name, text, start, st.ends[2*i])
		hf.Value, start = st.stringOf(f.Value, text, start, st.ends[2*i+1])
		dst = append(dst, hf)
	}
	return dst
}

// appendText adds s to the text unless it is an atom, and returns where
// it ends, or -1.
func (st *decodeState) appendText(s mdelem.Str) int {
	if s.Atom() != nil {
		return -1
	}
	st.text = append(st.text, s.UnsafeBytes()...)
	return len(st.text)
}

func (st *decodeState) stringOf(s mdelem.Str, text string, start, end int) (string, int) {
	if end < 0 {
		return s.String(), start // an atom's own string
	}
	return text[start:end], end
}
