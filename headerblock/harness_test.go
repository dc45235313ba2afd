package headerblock_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/metapack/metapack/headerblock"
	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
	"golang.org/x/net/http2"
	xhpack "golang.org/x/net/http2/hpack"
)

// The differential harness: one connection's frame bytes read by x/net's
// Framer with ReadMetaHeaders set, and by a Framer without it plus a
// headerblock.Reader, in both of its forms; the outcomes of each ReadFrame
// compared, and each disagreement named by classify or reported.

// field is a decoded field as both sides can give it.
type field struct {
	Name, Value string
	Sensitive   bool
}

// outcome is what one ReadFrame (and, for a HEADERS frame, the block read)
// gave.
type outcome struct {
	frame     string // "meta" for a header block, a frame type, or "" for none
	streamID  uint32
	ended     bool
	fields    []field
	truncated bool
	errKind   string // "", "conn", "stream" or "other"
	code      http2.ErrCode
	errText   string // an "other" error's message, or a stream error's detail
}

func (o outcome) String() string {
	s := fmt.Sprintf("frame=%q stream=%d ended=%v truncated=%v fields=%d", o.frame, o.streamID, o.ended, o.truncated, len(o.fields))
	if o.errKind != "" {
		s += fmt.Sprintf(" err=%s/%v%s", o.errKind, o.code, o.errText)
	}
	return s
}

// stops reports whether the connection cannot go on after o.
func (o outcome) stops() bool { return o.errKind != "" && o.errKind != "stream" }

func (o *outcome) setErr(err error) {
	var ce http2.ConnectionError
	var se http2.StreamError
	switch {
	case err == nil:
	case errors.As(err, &ce):
		o.errKind, o.code = "conn", http2.ErrCode(ce)
	case errors.As(err, &se):
		o.errKind, o.code = "stream", se.Code
	default:
		o.errKind, o.errText = "other", ": "+err.Error()
	}
}

func (o *outcome) setFrame(f http2.Frame) {
	if f == nil {
		return
	}
	o.frame = f.Header().Type.String()
	o.streamID = f.Header().StreamID
}

// connConfig is what a connection's readers are set up with.
type connConfig struct {
	maxList   uint32 // Framer.MaxHeaderListSize
	maxFrames int    // Reader.SetMaxBlockFrames; 0: the default
	maxBytes  int    // Reader.SetMaxBlockBytes; 0: the default
}

// readMode picks the reading side.
type readMode int

const (
	modeXnet readMode = iota
	modeMeta
	modeBatch
)

// side reads one connection's frames one way.
type side struct {
	mode  readMode
	fr    *http2.Framer
	xdec  *xhpack.Decoder
	r     *headerblock.Reader
	batch *mdelem.Batch
}

func newSide(mode readMode, wire []byte, cfg connConfig) *side {
	s := &side{mode: mode, fr: http2.NewFramer(nil, bytes.NewReader(wire))}
	s.fr.MaxHeaderListSize = cfg.maxList
	if mode == modeXnet {
		s.xdec = xhpack.NewDecoder(4096, nil)
		s.fr.ReadMetaHeaders = s.xdec
		return s
	}
	s.r = headerblock.NewReader(hpack.NewDecoder(4096))
	if cfg.maxFrames != 0 {
		s.r.SetMaxBlockFrames(cfg.maxFrames)
	}
	if cfg.maxBytes != 0 {
		s.r.SetMaxBlockBytes(cfg.maxBytes)
	}
	s.batch = mdelem.NewBatch(0, 0)
	return s
}

// next reads one frame, and the block a HEADERS frame starts.
func (s *side) next() outcome {
	var o outcome
	f, err := s.fr.ReadFrame()
	if sf, ok := f.(*http2.SettingsFrame); ok && err == nil {
		// An acknowledged SETTINGS_HEADER_TABLE_SIZE, as the tests use it.
		if v, ok := sf.Value(http2.SettingHeaderTableSize); ok {
			if s.xdec != nil {
				s.xdec.SetAllowedMaxDynamicTableSize(v)
			} else {
				s.r.Decoder().SetAllowedMaxDynamicTableSize(v)
			}
		}
	}
	hf, isHeaders := f.(*http2.HeadersFrame)
	switch {
	case s.mode == modeXnet:
		if mh, ok := f.(*http2.MetaHeadersFrame); ok {
			o.fromMeta(mh)
		} else {
			o.setFrame(f)
		}
	case err != nil || !isHeaders:
		o.setFrame(f)
	case s.mode == modeMeta:
		var mh *http2.MetaHeadersFrame
		mh, err = s.r.ReadMeta(s.fr, hf)
		if mh != nil {
			o.fromMeta(mh)
		}
	default:
		s.batch.Reset()
		o.frame, o.streamID, o.ended = "meta", hf.StreamID, hf.StreamEnded()
		o.truncated, err = s.r.ReadBatch(s.batch, s.fr, hf)
		o.fields = batchFields(s.batch)
	}
	o.setErr(err)
	if o.errKind == "stream" {
		// The Framer's detail of an invalid field, which the Reader's
		// ErrorDetail words as x/net's does.
		d := s.fr.ErrorDetail()
		if s.mode != modeXnet {
			d = s.r.ErrorDetail()
		}
		if d != nil {
			o.errText = ": " + d.Error()
		}
	}
	return o
}

func (o *outcome) fromMeta(mh *http2.MetaHeadersFrame) {
	o.frame, o.streamID, o.ended, o.truncated = "meta", mh.StreamID, mh.StreamEnded(), mh.Truncated
	o.fields = xnetFields(mh.Fields)
}

func xnetFields(hfs []xhpack.HeaderField) []field {
	out := make([]field, 0, len(hfs))
	for _, hf := range hfs {
		out = append(out, field{hf.Name, hf.Value, hf.Sensitive})
	}
	return out
}

func batchFields(b *mdelem.Batch) []field {
	out := make([]field, 0, b.Len())
	for _, f := range b.All() {
		out = append(out, field{f.Name.String(), f.Value.String(), f.Sensitive()})
	}
	return out
}

// agree reports whether ours matches x/net's outcome. A batch has no frame
// to return, so only its fields, flags and error are compared.
func agree(mode readMode, ours, xnet outcome) bool {
	if ours.errKind != xnet.errKind || ours.code != xnet.code || ours.errText != xnet.errText {
		return false
	}
	if mode == modeBatch && xnet.frame == "" && xnet.errKind != "" {
		return true // x/net returns no frame: nothing else to compare
	}
	return ours.frame == xnet.frame && ours.streamID == xnet.streamID && ours.ended == xnet.ended &&
		ours.truncated == xnet.truncated && slices.Equal(ours.fields, xnet.fields)
}

// A tally counts cases and disagreements, by category and by name.
type tally struct {
	cases     map[string]int
	readFrame int
	named     map[string]int
}

func newTally() *tally { return &tally{cases: map[string]int{}, named: map[string]int{}} }

// runConn reads wire with x/net and with both forms of the Reader, and
// returns a description of the first disagreement that classify does not
// name, or "". Named disagreements are counted in t.
func runConn(wire []byte, cfg connConfig, t *tally) string {
	for _, mode := range []readMode{modeMeta, modeBatch} {
		if msg := runPair(mode, wire, cfg, t); msg != "" {
			return msg
		}
	}
	return ""
}

func runPair(mode readMode, wire []byte, cfg connConfig, t *tally) string {
	steps := scanSteps(wire)
	xs := newSide(modeXnet, wire, cfg)
	ours := newSide(mode, wire, cfg)
	sh := newShadow(cfg)
	for i := 0; ; i++ {
		xo, oo := xs.next(), ours.next()
		var facts blockFacts
		if i < len(steps) {
			facts = sh.step(steps[i])
		}
		if t != nil {
			t.readFrame++
		}
		if !agree(mode, oo, xo) {
			name := classify(oo, xo, facts)
			if name == "" {
				return fmt.Sprintf("mode %d, ReadFrame %d: ours %v; x/net %v (facts %+v)", mode, i, oo, xo, facts)
			}
			if t != nil {
				t.named[name]++
			}
			return ""
		}
		if xo.stops() || xo.frame == "" && xo.errKind == "" {
			return ""
		}
	}
}
