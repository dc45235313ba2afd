package headerblock_test

import (
	"bytes"
	"errors"

	"github.com/metapack/metapack/headerblock"
	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
	"golang.org/x/net/http2"
	xhpack "golang.org/x/net/http2/hpack"
)

// The intended differences from x/net's Framer, as the package
// documentation names them.
const (
	diffSizeUpdateAfterField = "SizeUpdateAfterField"
	diffTooManySizeUpdates   = "TooManySizeUpdates"
	diffSecondSizeUpdate     = "SecondSizeUpdate"
	diffSizeUpdateRequired   = "SizeUpdateRequired"
	diffIntegerBound         = "IntegerBound"
	diffStringOverList       = "StringOverList"
	diffBlockBound           = "BlockBound"
	// HuffmanAfterStop is not in the package documentation yet: once
	// x/net's Framer stops taking fields (an invalid field, or the list
	// over MaxHeaderListSize), its decoder no longer Huffman-decodes the
	// strings of fields it does not index, so an invalid Huffman string
	// there (RFC 7541 §5.2: a decoding error) goes unnoticed. metapack's
	// Decoder decodes every string, and the Reader ends the connection
	// with ErrCodeCompression.
	diffHuffmanAfterStop   = "HuffmanAfterStop"
	diffFieldLimit         = "FieldLimit"
	diffUncheckedOverLimit = "UncheckedOverLimit"
)

// A step is one top-level ReadFrame of a connection as a Framer without
// ReadMetaHeaders sees it: a header block's fragments, a table size
// setting, or another frame.
type step struct {
	block        bool
	frags        [][]byte
	complete     bool // the block ended with END_HEADERS
	tableSize    uint32
	hasTableSize bool
}

// scanSteps splits wire into steps with a plain Framer, which stops where
// the Framer's own checks stop both sides.
func scanSteps(wire []byte) []step {
	fr := http2.NewFramer(nil, bytes.NewReader(wire))
	var out []step
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return out
		}
		var s step
		switch f := f.(type) {
		case *http2.SettingsFrame:
			s.tableSize, s.hasTableSize = f.Value(http2.SettingHeaderTableSize)
		case *http2.HeadersFrame:
			s.block = true
			s.frags = append(s.frags, bytes.Clone(f.HeaderBlockFragment()))
			s.complete = f.HeadersEnded()
			for !s.complete {
				f, err := fr.ReadFrame()
				if err != nil {
					break
				}
				cf := f.(*http2.ContinuationFrame)
				s.frags = append(s.frags, bytes.Clone(cf.HeaderBlockFragment()))
				s.complete = cf.HeadersEnded()
			}
		}
		out = append(out, s)
	}
}

// blockFacts is what classify knows of the block a disagreement is on.
type blockFacts struct {
	block               bool
	frames, bytes       int
	maxFrames, maxBytes int    // the Reader's bounds; 0: none
	decErr              error  // metapack's Decoder's error on the block
	tableSize           uint32 // the dynamic table's size before the block
	leadingUpdates      int    // size updates before the block's first field
	longString          bool   // a string over the list size: literal, decoded or from a table
	// updateAfterField: a size update follows a field, which x/net
	// rejects on its first byte when its table is not empty, and
	// metapack once the update's integer is complete.
	updateAfterField bool
	fields           int  // fields in the block
	overDecoded      bool // the fields' sizes sum past three times the list size
}

// shadow follows a connection's blocks with a decoder of its own, to name
// the rule a block breaks.
type shadow struct {
	dec       *hpack.Decoder
	maxString int
	maxFrames int
	maxBytes  int
}

// defaultBounds returns the Reader's default bounds on a block's frames
// and bytes for a list limit of maxList, as its documentation gives them.
func defaultBounds(maxList uint32) (frames, bytes int) {
	bytes = max(headerblock.DefaultMaxBlockBytes, 2*int(maxList))
	return max(headerblock.DefaultMaxBlockFrames, bytes/16384), bytes
}

func newShadow(cfg connConfig) *shadow {
	maxList := cfg.maxList
	if maxList == 0 {
		maxList = 16 << 20
	}
	frames, bytes := defaultBounds(maxList)
	s := &shadow{dec: hpack.NewDecoder(4096), maxFrames: frames, maxBytes: bytes}
	s.maxString = int(maxList)
	s.dec.SetMaxHeaderListSize(-1)
	s.dec.SetMaxFields(-1)
	s.dec.SetMaxStringLength(s.maxString)
	if cfg.maxBytes > 0 {
		s.maxBytes = cfg.maxBytes
	}
	switch {
	case cfg.maxFrames > 0:
		s.maxFrames = cfg.maxFrames
	case cfg.maxFrames < 0:
		s.maxFrames = 0
	}
	return s
}

func (s *shadow) step(st step) blockFacts {
	if st.hasTableSize {
		s.dec.SetAllowedMaxDynamicTableSize(st.tableSize)
	}
	if !st.block {
		return blockFacts{}
	}
	f := blockFacts{block: true, frames: len(st.frags), maxFrames: s.maxFrames, maxBytes: s.maxBytes}
	f.tableSize, _ = s.dec.DynamicTableSize()
	var all []byte
	var decoded uint64
	for i, frag := range st.frags {
		f.bytes += len(frag)
		all = append(all, frag...)
		err := s.dec.DecodeFragmentFunc(func(fl mdelem.Field) {
			// x/net checks the strings of every field it decodes, from
			// the table too, against the list size.
			if fl.Name.Len() > s.maxString || fl.Value.Len() > s.maxString {
				f.longString = true
			}
			f.fields++
			decoded += uint64(fl.Size())
			f.overDecoded = f.overDecoded || decoded > 3*uint64(s.maxString)
		}, frag, st.complete && i == len(st.frags)-1)
		switch {
		case errors.Is(err, hpack.ErrStringLength), errors.Is(s.dec.BlockErr(), hpack.ErrStringLength):
			f.longString = true
		case err != nil && !hpack.IsStreamError(err) && f.decErr == nil:
			f.decErr = err
		}
	}
	var long bool
	f.leadingUpdates, long, f.updateAfterField = scanBlock(all, s.maxString)
	f.longString = f.longString || long
	return f
}

// classify names the intended difference that explains ours and x/net's
// outcomes of one ReadFrame on the block f describes, or returns "".
func classify(ours, xnet outcome, f blockFacts) string {
	if !f.block {
		return ""
	}
	conn := func(o outcome, c http2.ErrCode) bool { return o.errKind == "conn" && o.code == c }
	// Both sides may end the connection with the same code and still
	// differ in the fields before: the stricter side stopped earlier.
	if conn(ours, http2.ErrCodeEnhanceYourCalm) && !conn(xnet, http2.ErrCodeEnhanceYourCalm) &&
		(f.maxFrames > 0 && f.frames > f.maxFrames || f.maxBytes > 0 && f.bytes > f.maxBytes) {
		return diffBlockBound
	}
	// The Reader's decoder drops fields past its own bounds before they
	// are checked.
	if ours.truncated && !xnet.truncated {
		switch {
		case f.overDecoded && xnet.code == http2.ErrCodeProtocol:
			return diffUncheckedOverLimit
		case f.fields > 256:
			return diffFieldLimit
		}
	}
	// The same, with a decoding error later in the fragment that dropped
	// the field: the decoder's limit error is gone with the block, so the
	// Reader does not mark the list truncated, where x/net does. Both end
	// the connection alike.
	if !ours.truncated && xnet.truncated && f.overDecoded && ours.errKind == "conn" && xnet.errKind == "conn" && ours.code == xnet.code {
		return diffUncheckedOverLimit
	}
	if conn(ours, http2.ErrCodeCompression) {
		switch {
		case errors.Is(f.decErr, hpack.ErrSizeUpdateNotFirst):
			return diffSizeUpdateAfterField
		case errors.Is(f.decErr, hpack.ErrTooManySizeUpdates):
			return diffTooManySizeUpdates
		case errors.Is(f.decErr, hpack.ErrSizeUpdateMissing), errors.Is(f.decErr, hpack.ErrSizeUpdateNotLowest):
			return diffSizeUpdateRequired
		case errors.Is(f.decErr, hpack.ErrIntegerOverflow):
			return diffIntegerBound
		case errors.Is(f.decErr, hpack.ErrInvalidHuffman) &&
			(xnet.truncated || xnet.errKind == "stream" || conn(xnet, http2.ErrCodeProtocol)):
			return diffHuffmanAfterStop
		}
	}
	if conn(xnet, http2.ErrCodeCompression) {
		switch {
		case f.longString:
			return diffStringOverList
		case f.leadingUpdates >= 2 && f.tableSize > 0:
			return diffSecondSizeUpdate
		case f.updateAfterField && ours.errKind == "conn":
			return diffSizeUpdateAfterField
		}
	}
	return ""
}

// scanBlock walks a block's representations without a table: it counts
// the size updates before the first field and looks for a string longer
// than maxString, raw or Huffman-decoded. It stops where the block stops
// making sense.
func scanBlock(b []byte, maxString int) (leadingUpdates int, long, updateAfterField bool) {
	field := false
	for len(b) > 0 {
		c := b[0]
		var idx uint64
		var ok bool
		switch {
		case c&0x80 != 0:
			_, b, ok = readInt(b, 7)
			field = true
			if !ok {
				return
			}
			continue
		case c&0xe0 == 0x20:
			_, b, ok = readInt(b, 5)
			if !field {
				leadingUpdates++
			}
			updateAfterField = updateAfterField || field
			if !ok {
				return
			}
			continue
		case c&0xc0 == 0x40:
			idx, b, ok = readInt(b, 6)
		default:
			idx, b, ok = readInt(b, 4)
		}
		field = true
		if !ok {
			return
		}
		n := 2
		if idx != 0 {
			n = 1
		}
		for range n {
			long, b, ok = readString(b, maxString)
			if long || !ok {
				return
			}
		}
	}
	return
}

func readInt(b []byte, n uint) (v uint64, rest []byte, ok bool) {
	limit := uint64(1)<<n - 1
	v, b = uint64(b[0])&limit, b[1:]
	if v < limit {
		return v, b, true
	}
	for m := uint(0); m < 63; m += 7 {
		if len(b) == 0 {
			return 0, nil, false
		}
		c := b[0]
		b = b[1:]
		v += uint64(c&0x7f) << m
		if c&0x80 == 0 {
			return v, b, true
		}
	}
	return 0, nil, false
}

func readString(b []byte, maxString int) (long bool, rest []byte, ok bool) {
	if len(b) == 0 {
		return false, nil, false
	}
	huff := b[0]&0x80 != 0
	n, b, ok := readInt(b, 7)
	switch {
	case !ok:
		return false, nil, false
	case n > uint64(maxString):
		return true, nil, true
	case n > uint64(len(b)):
		return false, nil, false
	}
	if huff {
		if s, err := xhpack.HuffmanDecodeToString(b[:n]); err == nil && len(s) > maxString {
			return true, nil, true
		}
	}
	return false, b[n:], true
}
