package main

import (
	"encoding/base64"
	"errors"
	"strconv"

	"github.com/metapack/metapack/grpcmeta"
	"github.com/metapack/metapack/headerblock"
	"github.com/metapack/metapack/mdelem"
	"golang.org/x/net/http2"
	xhpack "golang.org/x/net/http2/hpack"
)

// xnetCodec is the header codec built on golang.org/x/net/http2, for A/B
// comparisons, read as x/net's own server reads it: the Framer's
// ReadMetaHeaders is x/net's hpack.Decoder, so that ReadFrame reads each
// header block, CONTINUATION frames included, decodes it, makes its checks
// on the fields and counts the list against MaxHeaderListSize, and returns
// an *http2.MetaHeadersFrame, whose fields become the request's. Responses
// are encoded with x/net's hpack.Encoder.
//
// Where x/net's read path differs from headerblock.Reader's with
// SetStreamErrors, which metapackCodec uses, the server differs with it
// (the headerblock package documentation names each difference):
//   - StringOverList: a name or value longer than MaxHeaderListSize does
//     not decode in x/net (its string limit is the list size): GOAWAY
//     COMPRESSION_ERROR, where metapackCodec answers 431;
//   - SetStreamErrors: a CONTINUATION frame after the list went over the
//     limit, or after an invalid field, and a fragment over twice what is
//     left of the list size, end the connection (GOAWAY PROTOCOL_ERROR),
//     where metapackCodec reads the block to its end and answers 431 or
//     RST_STREAM;
//   - BlockBound: x/net has no bound on a block's frames or bytes of its
//     own, so the frame and byte bounds of codecLimits do not apply, and a
//     flood of empty CONTINUATION frames goes on as long as the client
//     sends it (x/net bounds a block's bytes only by what is left of the
//     list size, which empty frames do not use up);
//   - FieldLimit: x/net has no field limit; MaxHeaderFields is counted
//     here once the block is read, with the same 431.
type xnetCodec struct {
	dec *xhpack.Decoder // the Framer's ReadMetaHeaders
	enc *xhpack.Encoder
	out appendWriter // the encoder's output

	cur  *xnetHeaders // the block just read (the reader goroutine's)
	free []*xnetHeaders

	maxFields int
	detail    error
	bin, msg  []byte // scratch for echoed binary metadata and grpc-message for echoed binary metadata and grpc-message
}

// xnetHeaders is a decoded header list: the Fields of a MetaHeadersFrame,
// which x/net allocates for each block.
type xnetHeaders struct{ fields []xhpack.HeaderField }

// appendWriter is an io.Writer that appends to a byte slice.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

func newXnetCodec(lim codecLimits) *xnetCodec {
	x := &xnetCodec{maxFields: lim.maxFields, cur: &xnetHeaders{}}
	// As x/net's server makes it: the Framer sets its emit function and
	// string limit for each block.
	x.dec = xhpack.NewDecoder(initialHeaderTableSize, nil)
	x.enc = xhpack.NewEncoder(&x.out)
	return x
}

// initialHeaderTableSize is HTTP/2's initial SETTINGS_HEADER_TABLE_SIZE.
const initialHeaderTableSize = 4096

// setFramer has fr read and decode whole header blocks with x/net's
// decoder, as x/net's server does.
func (x *xnetCodec) setFramer(fr *http2.Framer) { fr.ReadMetaHeaders = x.dec }

func (x *xnetCodec) readHeaders(fr *http2.Framer, f http2.Frame, readErr error) (bool, error) {
	x.discardBlock()
	x.detail = nil
	mh := f.(*http2.MetaHeadersFrame)
	if readErr != nil {
		var ce http2.ConnectionError
		if errors.As(readErr, &ce) {
			x.detail = xnetBlockDetail(http2.ErrCode(ce), mh.Truncated)
		}
		return mh.Truncated, readErr
	}
	switch {
	case mh.Truncated:
		return true, listError(mh.StreamID, headerblock.ErrListTooLarge)
	case len(mh.Fields) > x.maxFields:
		return false, listError(mh.StreamID, errTooManyFields)
	}
	x.cur.fields = mh.Fields
	return false, nil
}

// xnetBlockDetail gives the reason for a connection error x/net's Framer
// returns with a MetaHeadersFrame, which it does not say itself.
func xnetBlockDetail(code http2.ErrCode, truncated bool) error {
	switch {
	case code == http2.ErrCodeCompression:
		return errors.New("x/net: header block does not decode (or has a string longer than the header list size)")
	case code == http2.ErrCodeProtocol && truncated:
		return errors.New("x/net: header block goes on after its list went over the header list size")
	case code == http2.ErrCodeProtocol:
		return errors.New("x/net: header block goes on after an invalid field, or a fragment over twice what is left of the header list size")
	}
	return nil
}

func (x *xnetCodec) errorDetail() error { return x.detail }

func (x *xnetCodec) discardBlock() { x.cur.fields = nil }

func (x *xnetCodec) takeRequest() (any, reqInfo, error) {
	h := x.cur
	if n := len(x.free); n > 0 {
		x.cur, x.free = x.free[n-1], x.free[:n-1]
	} else {
		x.cur = &xnetHeaders{}
	}
	info, err := xnetRequestInfo(h.fields)
	if err != nil {
		x.releaseRequest(h)
		return nil, reqInfo{}, err
	}
	return h, info, nil
}

// xnetRequestInfo makes the checks of grpcmeta.ValidateRequest on x/net
// fields and picks out the fields the server acts on. x/net's Framer has
// checked the names and values, and the pseudo-header fields: the defined
// ones only, each once, before the regular ones.
func xnetRequestInfo(fields []xhpack.HeaderField) (reqInfo, error) {
	info := reqInfo{contentLength: -1}
	var seen uint8
	var scheme string
	for _, f := range fields {
		if f.IsPseudo() {
			var bit uint8
			switch f.Name {
			case ":method":
				bit, info.method = 1, f.Value
			case ":scheme":
				bit, scheme = 2, f.Value
			case ":path":
				bit, info.path = 4, f.Value
			case ":authority":
				bit = 8
			default:
				return reqInfo{}, errValidate("unknown pseudo-header", f.Name)
			}
			if seen&bit != 0 {
				return reqInfo{}, errValidate("duplicated pseudo-header", f.Name)
			}
			seen |= bit
			continue
		}
		switch f.Name {
		case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade":
			return reqInfo{}, errValidate("connection-specific header", f.Name)
		case "te":
			if f.Value != "trailers" {
				return reqInfo{}, errValidate(`te header other than "trailers"`, f.Name)
			}
		case "content-type":
			if seen&16 == 0 {
				seen |= 16
				info.contentType = grpcmeta.ValueOf(mdelem.StrOf(mdelem.BorrowString(f.Value))).ContentType()
			}
		case "grpc-encoding":
			if seen&32 == 0 {
				seen |= 32
				if f.Value != "" {
					info.grpcEncoding, info.hasEncoding = f.Value, true
					info.coding = grpcmeta.ValueOf(mdelem.StrOf(mdelem.BorrowString(f.Value))).Coding()
				}
			}
		case "grpc-timeout":
			if !info.hasTimeout {
				info.grpcTimeout, info.hasTimeout = f.Value, true
			}
		case "content-length":
			if info.contentLength < 0 {
				n, err := parseContentLength(f.Value)
				if err != nil {
					return reqInfo{}, err
				}
				info.contentLength = n
			}
		}
	}
	if seen&7 != 7 { // :method, :scheme, :path
		return reqInfo{}, errValidate("required pseudo-header missing", "")
	}
	_ = scheme
	if info.path == "" {
		return reqInfo{}, errEmptyPath
	}
	return info, nil
}

type validateError struct{ msg, name string }

func (e *validateError) Error() string { return e.msg + ": " + strconv.Quote(e.name) }

func errValidate(msg, name string) error { return &validateError{msg, name} }

func (x *xnetCodec) releaseRequest(h any) {
	xh := h.(*xnetHeaders)
	xh.fields = nil
	x.free = append(x.free, xh)
}

func (x *xnetCodec) takeTrailers() error {
	defer x.discardBlock()
	for _, f := range x.cur.fields {
		if f.IsPseudo() {
			return errPseudoInTrailers
		}
	}
	return nil
}

func (x *xnetCodec) ackHeaderTableSize(v uint32)     { x.dec.SetAllowedMaxDynamicTableSize(v) }
func (x *xnetCodec) setPeerHeaderTableSize(v uint32) { x.enc.SetMaxDynamicTableSize(v) }

// encode runs the x/net Encoder's output into dst.
func (x *xnetCodec) begin(dst []byte) { x.out.b = dst }
func (x *xnetCodec) end() []byte {
	b := x.out.b
	x.out.b = nil
	return b
}

func (x *xnetCodec) appendGRPCHeaders(dst []byte, req any, status int, msg string) []byte {
	x.begin(dst)
	x.enc.WriteField(xhpack.HeaderField{Name: ":status", Value: "200"})
	x.enc.WriteField(xhpack.HeaderField{Name: "content-type", Value: "application/grpc"})
	if req != nil {
		for _, f := range req.(*xnetHeaders).fields {
			if !echoed(f.Name) {
				continue
			}
			if !grpcmeta.IsBinary(f.Name) {
				x.enc.WriteField(f)
				continue
			}
			x.bin = eachBinary(x.bin, f.Name, f.Value, func(dec []byte) {
				x.msg = base64.RawStdEncoding.AppendEncode(x.msg[:0], dec)
				x.enc.WriteField(xhpack.HeaderField{Name: f.Name, Value: string(x.msg), Sensitive: f.Sensitive})
			})
		}
	}
	if status >= 0 {
		x.writeStatus(status, msg)
	}
	return x.end()
}

func (x *xnetCodec) echoSize(req any) int {
	n := 0
	for _, f := range req.(*xnetHeaders).fields {
		if echoed(f.Name) {
			var size int
			x.bin, size = echoFieldSize(x.bin, f.Name, f.Value)
			n += size
		}
	}
	return n
}

func (x *xnetCodec) eachMetadata(req any, fn func(name, value string)) {
	for _, f := range req.(*xnetHeaders).fields {
		if !f.IsPseudo() {
			fn(f.Name, f.Value)
		}
	}
}

func (x *xnetCodec) writeStatus(status int, msg string) {
	x.enc.WriteField(xhpack.HeaderField{Name: "grpc-status", Value: statusString(status)})
	if msg != "" {
		x.msg = grpcmeta.AppendMessage(x.msg[:0], msg)
		x.enc.WriteField(xhpack.HeaderField{Name: "grpc-message", Value: string(x.msg)})
	}
}

func (x *xnetCodec) appendGRPCTrailers(dst []byte, status int, msg string) []byte {
	x.begin(dst)
	x.writeStatus(status, msg)
	return x.end()
}

func (x *xnetCodec) appendTextHeaders(dst []byte, status int, contentLength int) []byte {
	x.begin(dst)
	x.enc.WriteField(xhpack.HeaderField{Name: ":status", Value: strconv.Itoa(status)})
	x.enc.WriteField(xhpack.HeaderField{Name: "content-type", Value: textContentType})
	x.enc.WriteField(xhpack.HeaderField{Name: "content-length", Value: strconv.Itoa(contentLength)})
	return x.end()
}
