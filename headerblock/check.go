package headerblock

import (
	"math"
	"strings"

	"github.com/metapack/metapack/internal/httpfield"
	"github.com/metapack/metapack/internal/httpfield/fieldkey"
	"github.com/metapack/metapack/internal/tabledef"
	"github.com/metapack/metapack/internal/tier"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
	"golang.org/x/net/http2"
)

// defaultMaxHeaderListSize is x/net's for a MaxHeaderListSize of 0.
const defaultMaxHeaderListSize = 16 << 20

// block is the state of the header block being read: x/net's checks and
// header list accounting, field by field.
type block struct {
	streamID uint32
	// What is left of the list size; x/net counts trailer apart.
	headersLeft, trailersLeft uint32
	maxString                 int
	fields                    int // fields seen, accepted or not
	// Once the list is over the limit or a field invalid, no later field
	// is taken or checked.
	truncated bool
	invalid   error
	pseudoErr error // the first among the accepted pseudo-header fields
	section   httpfield.Section
}

// start begins a block on stream id, with Framer.MaxHeaderListSize maxList.
func (b *block) start(id, maxList uint32) {
	if maxList == 0 {
		maxList = defaultMaxHeaderListSize
	}
	*b = block{streamID: id, headersLeft: maxList, trailersLeft: maxList, maxString: int(maxList)}
	if b.maxString < 0 { // int is 32 bits: no limit, as in x/net
		b.maxString = 0
	}
}

// maxDecoded is the list size, counted as the decoder counts it, past
// which no field can be accepted: x/net counts a trailer field's
// announced names against a second budget as large as the first, and as
// little as 33 bytes of it for a field the decoder counts as 40, so the
// two budgets take at most max*(1+40/33) < 3*max. The decoder drops the
// fields past it, which bounds the memory a block can make a batch hold.
func (b *block) maxDecoded() int {
	return int(min(3*uint64(b.headersLeft), math.MaxInt))
}

// truncate ends the list: it went over the limit.
func (b *block) truncate() {
	b.truncated = true
	b.headersLeft, b.trailersLeft = 0, 0
}

// accept checks f as x/net's Framer does, accounts for its size, and
// reports whether f belongs in the list.
func (b *block) accept(f *mdelem.Field) bool {
	b.fields++
	if b.truncated || b.invalid != nil {
		return false
	}
	key := staticdata.KeyUnknown
	if a := f.Name.Atom(); a != nil {
		key = a.Key()
	}
	name := f.Name.UnsafeString()
	value := f.Value.UnsafeString()
	pseudo := len(name) > 0 && name[0] == ':'
	// The same checks in the same order as x/net's, so that the error
	// names the same condition.
	if a := f.Value.Atom(); (a == nil || !tier.IsStatic(a)) && !httpfield.ValidValue(value) {
		b.invalid = b.fieldError(f, httpfield.InvalidValue)
	}
	if pseudo {
		if b.section.Order(true) != httpfield.OK {
			b.invalid = b.fieldError(f, httpfield.PseudoAfterRegular)
		}
	} else {
		b.section.Order(false)
		if key == staticdata.KeyUnknown && !httpfield.ValidName(name) {
			b.invalid = b.fieldError(f, httpfield.InvalidName)
		}
	}
	if b.invalid != nil {
		return false
	}
	left := &b.headersLeft
	size := uint32(len(name) + len(value) + tabledef.FieldOverhead)
	if key == staticdata.KeyUnknown && name == "trailer" {
		// x/net counts each name trailer announces as a field.
		left = &b.trailersLeft
		n := strings.Count(value, ",") + 1
		size = uint32(len(value)-n+1) + uint32(n)*tabledef.FieldOverhead
	}
	if size > *left {
		b.truncate()
		return false
	}
	*left -= size
	if pseudo {
		b.pseudo(f, key, name)
	}
	return true
}

// pseudo records an accepted pseudo-header field for x/net's checks.
func (b *block) pseudo(f *mdelem.Field, key staticdata.KeyID, name string) {
	kind := fieldkey.Pseudo(key)
	if key == staticdata.KeyUnknown {
		kind = httpfield.PseudoOf(name)
	}
	if r := b.section.Kind(kind, httpfield.Request|httpfield.Response); r != httpfield.OK && b.pseudoErr == nil {
		b.pseudoErr = b.fieldError(f, r)
	}
}

// finish returns the block's stream error, once it is decoded.
func (b *block) finish() error {
	err := b.invalid
	if err == nil {
		err = b.pseudoErr
	}
	if err == nil && b.section.Mixed() {
		err = &FieldError{Index: -1, Err: ErrMixedPseudo}
	}
	if err != nil {
		return http2.StreamError{StreamID: b.streamID, Code: http2.ErrCodeProtocol, Cause: err}
	}
	return nil
}

func (b *block) fieldError(f *mdelem.Field, r httpfield.Reason) *FieldError {
	return &FieldError{Name: f.Name.String(), Index: b.fields - 1, Err: reasons[r]}
}
