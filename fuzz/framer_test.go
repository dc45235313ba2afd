package fuzz

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/metapack/metapack/headerblock"
	"github.com/metapack/metapack/hpack"
	"github.com/metapack/metapack/mdelem"
	"golang.org/x/net/http2"
	xhpack "golang.org/x/net/http2/hpack"
)

// framerListSizes maps three bits of FuzzFramer's control word to a
// Framer.MaxHeaderListSize: x/net's default, and limits blocks go over.
var framerListSizes = [...]uint32{0, 16, 40, 64, 100, 200, 1000, 1 << 31}

// FuzzFramer writes up to three of the fuzzer's header blocks as HEADERS
// and CONTINUATION frames, split, flagged and interleaved as ctl says,
// and reads them with x/net's Framer (ReadMetaHeaders set) and with a
// Framer and a headerblock.Reader (ReadMeta and ReadBatch). Each
// ReadFrame must agree, or the disagreement must be one of the Reader's
// named differences (headerblock's package doc).
//
// ctl: bits 0-2 list size, bit 3 a PING between blocks, bit 4 a table
// size SETTINGS before the second block (value from bits 5-6), bit 7
// the second block's CONTINUATION on the wrong stream, bit 8 a flood of
// empty CONTINUATION frames in the first block, bits 16 on the split.
func FuzzFramer(f *testing.F) {
	for i, s := range decodeSeeds() {
		f.Add(s, uint64(i)<<16|uint64(i%8))
	}
	for i, b := range framerSeeds {
		f.Add([]byte(b), uint64(i)*0x9e3779b97f4a7c15)
	}
	f.Fuzz(func(t *testing.T, data []byte, ctl uint64) {
		maxList := framerListSizes[ctl&7]
		wire := framerWire(data, ctl)
		for _, batch := range []bool{false, true} {
			if msg := framerCompare(wire, maxList, batch); msg != "" {
				t.Fatalf("ctl %#x, wire %x: %s", ctl, wire, msg)
			}
		}
	})
}

// framerSeeds cover the categories of headerblock's differential test:
// invalid names and values, pseudo-header fields out of place, size
// updates, strings and lists over the limit, Huffman after a dropped
// field, and CONTINUATION frames (three blocks joined with ff 00 ff).
var framerSeeds = []string{
	"\x00\x01A\x01b\x82",                                     // uppercase name
	"\x00\x01/\x01b",                                         // a static value as a name
	"\x00\x00\x01b",                                          // empty name
	"\x00\x01x\x03a\x00b",                                    // NUL in a value
	"\x00\x01x\x01\t\x00\x01y\x01\xff",                       // tab, 0xff: valid
	"\x00\x01a\x01b\x82",                                     // pseudo after regular
	"\x82\x82\x00\x05:fooo\x01x",                             // repeated, unknown pseudo
	"\x82\x88\x00\x09:protocol\x01w",                         // mixed, :protocol
	"\x82\x20\xff\x00\xff\x20\x20\x20\x82",                   // size updates misplaced
	"\x40\x01a\x01b\xff\x00\xff\x3f\xe1\x1f\x3f\xe1\x1f\xbe", // second size update
	"\x3f\x80\x80\x80\x80\x80\x80\x00\x82",                   // integer bound
	"\x00\x01x\x7faaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	"\x00\x07trailer\x05a,b,c\x82\x82\x82",         // trailer accounting
	"\x00\x01A\x01b\x00\x01x\x81\xff",              // invalid Huffman after an invalid field
	"\x82\x84\x86\xff\x00\xff\x82\xff\x00\xff\xbe", // blocks in a row
}

// framerWire builds the frames.
func framerWire(data []byte, ctl uint64) []byte {
	var buf bytes.Buffer
	fr := http2.NewFramer(&buf, nil)
	fr.AllowIllegalWrites = true
	for i, block := range splitBlocks(data) {
		stream := uint32(2*i + 1)
		if i > 0 && ctl&(1<<3) != 0 {
			fr.WritePing(false, [8]byte{})
		}
		if i == 1 && ctl&(1<<4) != 0 {
			sizes := [...]uint32{0, 100, 4096, 65536}
			fr.WriteSettings(http2.Setting{ID: http2.SettingHeaderTableSize, Val: sizes[ctl>>5&3]})
		}
		frags := splitAt(block, ctl>>16+uint64(i))
		fr.WriteHeaders(http2.HeadersFrameParam{StreamID: stream, BlockFragment: frags[0], EndStream: i%2 == 0, EndHeaders: len(frags) == 1})
		if i == 0 && ctl&(1<<8) != 0 && len(frags) > 1 {
			for range 2 * headerblock.DefaultMaxBlockFrames { // over the bound for small list limits
				fr.WriteContinuation(stream, false, nil)
			}
		}
		for j, frag := range frags[1:] {
			s := stream
			if i == 1 && ctl&(1<<7) != 0 {
				s += 2
			}
			fr.WriteContinuation(s, j == len(frags)-2, frag)
		}
	}
	return buf.Bytes()
}

// frameOutcome is what one ReadFrame gave, comparably.
type frameOutcome struct {
	frame            string // "meta", another frame type, or ""
	stream           uint32
	ended, truncated bool
	fields           []field
	kind             string // "", "conn", "stream", "other"
	code             http2.ErrCode
	text             string
}

func (o *frameOutcome) setErr(err error) {
	var ce http2.ConnectionError
	var se http2.StreamError
	switch {
	case err == nil:
	case errors.As(err, &ce):
		o.kind, o.code = "conn", http2.ErrCode(ce)
	case errors.As(err, &se):
		o.kind, o.code = "stream", se.Code
	default:
		o.kind, o.text = "other", err.Error()
	}
}

func (o *frameOutcome) setMeta(mh *http2.MetaHeadersFrame) {
	o.frame, o.stream, o.ended, o.truncated, o.fields = "meta", mh.StreamID, mh.StreamEnded(), mh.Truncated, fromXnet(mh.Fields)
}

// framerCompare reads wire both ways and returns the first disagreement
// no named difference explains, or "".
func framerCompare(wire []byte, maxList uint32, batch bool) string {
	xfr := http2.NewFramer(nil, bytes.NewReader(wire))
	xfr.MaxHeaderListSize = maxList
	xdec := xhpack.NewDecoder(4096, nil)
	xfr.ReadMetaHeaders = xdec
	ofr := http2.NewFramer(nil, bytes.NewReader(wire))
	ofr.MaxHeaderListSize = maxList
	r := headerblock.NewReader(hpack.NewDecoder(4096))
	dst := mdelem.NewBatch(0, 0)
	sh := newFramerShadow(wire, maxList)
	for i := 0; ; i++ {
		var xo, oo frameOutcome
		xf, err := xfr.ReadFrame()
		if mh, ok := xf.(*http2.MetaHeadersFrame); ok {
			xo.setMeta(mh)
		} else if xf != nil {
			xo.frame, xo.stream = xf.Header().Type.String(), xf.Header().StreamID
		}
		xo.setErr(err)
		of, err := ofr.ReadFrame()
		if hf, ok := of.(*http2.HeadersFrame); ok && err == nil {
			if batch {
				dst.Reset()
				oo.frame, oo.stream, oo.ended = "meta", hf.StreamID, hf.StreamEnded()
				oo.truncated, err = r.ReadBatch(dst, ofr, hf)
				oo.fields = fromBatch(dst)
			} else {
				var mh *http2.MetaHeadersFrame
				mh, err = r.ReadMeta(ofr, hf)
				if mh != nil {
					oo.setMeta(mh)
				}
			}
		} else if of != nil {
			oo.frame, oo.stream = of.Header().Type.String(), of.Header().StreamID
		}
		oo.setErr(err)
		// Apply an acknowledged table size to both decoders.
		if sf, ok := xf.(*http2.SettingsFrame); ok {
			if v, ok := sf.Value(http2.SettingHeaderTableSize); ok {
				xdec.SetAllowedMaxDynamicTableSize(v)
				r.Decoder().SetAllowedMaxDynamicTableSize(v)
			}
		}
		facts := sh.next()
		if !framerAgree(batch, oo, xo) {
			if framerDifference(oo, xo, facts) == "" {
				return fmt.Sprintf("ReadFrame %d (batch %v): ours %+v; x/net %+v; facts %+v", i, batch, oo, xo, facts)
			}
			return ""
		}
		if xo.kind != "" && xo.kind != "stream" {
			return ""
		}
	}
}

func framerAgree(batch bool, ours, xnet frameOutcome) bool {
	if ours.kind != xnet.kind || ours.code != xnet.code || ours.text != xnet.text {
		return false
	}
	if batch && xnet.frame == "" && xnet.kind != "" {
		return true
	}
	return ours.frame == xnet.frame && ours.stream == xnet.stream && ours.ended == xnet.ended &&
		ours.truncated == xnet.truncated && slices.Equal(ours.fields, xnet.fields)
}

// framerFacts is what framerDifference knows of a block.
type framerFacts struct {
	block          bool
	frames, bytes  int
	decErr         error
	tableSize      uint32
	leadingUpdates int
	longString     bool
	// updateAfterField: a size update follows a field, which x/net
	// rejects on its first byte when its table is not empty, and
	// metapack once the update's integer is complete.
	updateAfterField bool
	fields           int  // fields in the block
	overDecoded      bool // the fields' sizes sum past three times the list size
}

// framerShadow follows the connection's blocks with a decoder of its
// own, to name the rule a block breaks.
type framerShadow struct {
	fr        *http2.Framer
	dec       *hpack.Decoder
	maxString int
}

func newFramerShadow(wire []byte, maxList uint32) *framerShadow {
	if maxList == 0 {
		maxList = 16 << 20
	}
	s := &framerShadow{fr: http2.NewFramer(nil, bytes.NewReader(wire)), dec: hpack.NewDecoder(4096), maxString: int(maxList)}
	s.dec.SetMaxHeaderListSize(0)
	s.dec.SetMaxFields(0)
	s.dec.SetMaxStringLength(s.maxString)
	return s
}

// next reads the next top-level frame, and a block's CONTINUATIONs.
func (s *framerShadow) next() framerFacts {
	var ff framerFacts
	f, err := s.fr.ReadFrame()
	if err != nil {
		return ff
	}
	if sf, ok := f.(*http2.SettingsFrame); ok {
		if v, ok := sf.Value(http2.SettingHeaderTableSize); ok {
			s.dec.SetAllowedMaxDynamicTableSize(v)
		}
	}
	hf, ok := f.(*http2.HeadersFrame)
	if !ok {
		return ff
	}
	ff.block = true
	ff.tableSize, _ = s.dec.DynamicTableSize()
	frag, last := hf.HeaderBlockFragment(), hf.HeadersEnded()
	var all []byte
	var decoded uint64
	for {
		all = append(all, frag...)
		var long bool
		ff.leadingUpdates, long, ff.updateAfterField = scanFramerBlock(all, s.maxString)
		ff.longString = ff.longString || long
		ff.frames++
		ff.bytes += len(frag)
		err := s.dec.DecodeFragmentFunc(func(fl mdelem.Field) {
			if fl.Name.Len() > s.maxString || fl.Value.Len() > s.maxString {
				ff.longString = true
			}
			ff.fields++
			decoded += uint64(fl.Size())
			ff.overDecoded = ff.overDecoded || decoded > 3*uint64(s.maxString)
		}, frag, last)
		switch {
		case errors.Is(err, hpack.ErrStringLength), errors.Is(s.dec.BlockErr(), hpack.ErrStringLength):
			ff.longString = true
		case err != nil && !hpack.IsStreamError(err) && ff.decErr == nil:
			ff.decErr = err
		}
		if last {
			return ff
		}
		f, err := s.fr.ReadFrame()
		if err != nil {
			return ff
		}
		cf := f.(*http2.ContinuationFrame)
		frag, last = cf.HeaderBlockFragment(), cf.HeadersEnded()
	}
}

// scanFramerBlock walks a block's representations without a table: it
// counts the size updates before the first field and reports a string
// whose length prefix is over maxString, which x/net rejects as soon as
// it reads the prefix.
func scanFramerBlock(b []byte, maxString int) (leadingUpdates int, long, updateAfterField bool) {
	field := false
	for len(b) > 0 {
		c, strs := b[0], 0
		var idx uint64
		var ok bool
		switch {
		case c&0x80 != 0:
			_, b, ok = framerInt(b, 7)
		case c&0xe0 == 0x20:
			_, b, ok = framerInt(b, 5)
			if !field {
				leadingUpdates++
			}
			updateAfterField = updateAfterField || field
		case c&0xc0 == 0x40:
			idx, b, ok = framerInt(b, 6)
			strs = 1
		default:
			idx, b, ok = framerInt(b, 4)
			strs = 1
		}
		field = field || c&0xe0 != 0x20
		if strs == 1 && idx == 0 {
			strs = 2
		}
		for ; ok && strs > 0; strs-- {
			var n uint64
			if n, b, ok = framerInt(b, 7); !ok {
				break
			}
			if n > uint64(maxString) {
				return leadingUpdates, true, updateAfterField
			}
			if ok = n <= uint64(len(b)); ok {
				b = b[n:]
			}
		}
		if !ok {
			break
		}
	}
	return leadingUpdates, false, updateAfterField
}

// framerInt reads an integer with an n-bit prefix (RFC 7541 §5.1).
func framerInt(b []byte, n uint) (v uint64, rest []byte, ok bool) {
	if len(b) == 0 {
		return 0, nil, false
	}
	limit := uint64(1)<<n - 1
	if v, b = uint64(b[0])&limit, b[1:]; v < limit {
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

// framerDifference names the Reader's intended difference from x/net that
// explains the outcomes, or returns "" (headerblock's classifier, kept in
// step with it by hand).
func framerDifference(ours, xnet frameOutcome, f framerFacts) string {
	if !f.block {
		return ""
	}
	conn := func(o frameOutcome, c http2.ErrCode) bool { return o.kind == "conn" && o.code == c }
	// Both sides may end the connection with the same code and still
	// differ in the fields before: the stricter side stopped earlier.
	if conn(ours, http2.ErrCodeEnhanceYourCalm) && !conn(xnet, http2.ErrCodeEnhanceYourCalm) &&
		(f.frames > headerblock.DefaultMaxBlockFrames || f.bytes > headerblock.DefaultMaxBlockBytes) {
		return "BlockBound"
	}
	// The Reader's decoder drops fields past its own bounds before they
	// are checked.
	if ours.truncated && !xnet.truncated {
		switch {
		case f.overDecoded && xnet.code == http2.ErrCodeProtocol:
			return "UncheckedOverLimit"
		case f.fields > hpack.DefaultMaxFields:
			return "FieldLimit"
		}
	}
	// The same, with a decoding error later in the fragment that dropped
	// the field: the decoder's limit error is gone with the block, so the
	// Reader does not mark the list truncated, where x/net does. Both end
	// the connection alike.
	if !ours.truncated && xnet.truncated && f.overDecoded && ours.kind == "conn" && xnet.kind == "conn" && ours.code == xnet.code {
		return "UncheckedOverLimit"
	}
	if conn(ours, http2.ErrCodeCompression) {
		switch {
		case errors.Is(f.decErr, hpack.ErrSizeUpdateNotFirst):
			return "SizeUpdateAfterField"
		case errors.Is(f.decErr, hpack.ErrTooManySizeUpdates):
			return "TooManySizeUpdates"
		case errors.Is(f.decErr, hpack.ErrSizeUpdateMissing), errors.Is(f.decErr, hpack.ErrSizeUpdateNotLowest):
			return "SizeUpdateRequired"
		case errors.Is(f.decErr, hpack.ErrIntegerOverflow):
			return "IntegerBound"
		case errors.Is(f.decErr, hpack.ErrInvalidHuffman) &&
			(xnet.truncated || xnet.kind == "stream" || conn(xnet, http2.ErrCodeProtocol)):
			return "HuffmanAfterStop" // not yet in headerblock's package doc
		}
	}
	if conn(xnet, http2.ErrCodeCompression) {
		switch {
		case f.longString:
			return "StringOverList"
		case f.leadingUpdates >= 2 && f.tableSize > 0:
			return "SecondSizeUpdate"
		case f.updateAfterField && ours.kind == "conn":
			return "SizeUpdateAfterField"
		}
	}
	return ""
}
