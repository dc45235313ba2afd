package main

import (
	"strconv"

	mphpack "github.com/metapack/metapack/hpack"
	"golang.org/x/net/http2/hpack"
)

// xnetCodec is the header codec built on golang.org/x/net/http2/hpack, for
// A/B comparisons: fields decode into []hpack.HeaderField, and the same
// limits and request checks apply as with metapackCodec.
type xnetCodec struct {
	dec *hpack.Decoder
	enc *hpack.Encoder
	out appendWriter // the encoder's output

	cur  *xnetHeaders // the block being decoded
	free []*xnetHeaders

	maxListSize, maxFields int
	listSize, fields       int
	limitErr               *mphpack.LimitError
}

// xnetHeaders is a decoded header list.
type xnetHeaders struct{ fields []hpack.HeaderField }

// appendWriter is an io.Writer that appends to a byte slice.
type appendWriter struct{ b []byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

func newXnetCodec(lim codecLimits) *xnetCodec {
	x := &xnetCodec{maxListSize: lim.maxListSize, maxFields: lim.maxFields, cur: &xnetHeaders{}}
	x.dec = hpack.NewDecoder(mphpack.DefaultTableSize, x.emit)
	// x/net's string limit is a decoding error, which would end the
	// connection: set it past anything a block within the byte budget
	// can hold (Huffman decodes at most 8/5 of its input), so that over-
	// long strings reach emit and the list limit, a stream error.
	x.dec.SetMaxStringLength(2*lim.maxBlockBytes + 1)
	x.enc = hpack.NewEncoder(&x.out)
	return x
}

// emit collects a decoded field, enforcing the header list limits the way
// metapack's Decoder does: fields past a limit are dropped, decoding goes
// on so the dynamic table stays in sync, and the block ends with a
// *LimitError (a stream error).
func (x *xnetCodec) emit(f hpack.HeaderField) {
	if x.limitErr != nil {
		return
	}
	x.fields++
	x.listSize += len(f.Name) + len(f.Value) + 32
	switch {
	case x.fields > x.maxFields:
		x.limitErr = &mphpack.LimitError{Err: mphpack.ErrFieldCount, Limit: x.maxFields}
	case x.listSize > x.maxListSize:
		x.limitErr = &mphpack.LimitError{Err: mphpack.ErrHeaderListSize, Limit: x.maxListSize}
	default:
		x.cur.fields = append(x.cur.fields, f)
	}
}

func (x *xnetCodec) decodeFragment(frag []byte, last bool) error {
	if _, err := x.dec.Write(frag); err != nil {
		return err
	}
	if !last {
		return nil
	}
	if err := x.dec.Close(); err != nil {
		return err
	}
	le := x.limitErr
	x.limitErr, x.fields, x.listSize = nil, 0, 0
	if le != nil {
		return le
	}
	return nil
}

func (x *xnetCodec) discardBlock() { x.cur.fields = x.cur.fields[:0] }

func (x *xnetCodec) blockErr() error {
	if x.limitErr != nil {
		return x.limitErr
	}
	return nil
}

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
// fields and picks out the fields the server acts on.
func xnetRequestInfo(fields []hpack.HeaderField) (reqInfo, error) {
	info := reqInfo{contentLength: -1}
	var seen uint8
	regular := false
	var scheme string
	for _, f := range fields {
		if f.IsPseudo() {
			if regular {
				return reqInfo{}, errValidate("pseudo-header after a regular header", f.Name)
			}
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
		regular = true
		if f.Name == "" {
			return reqInfo{}, errValidate("empty header name", f.Name)
		}
		for i := 0; i < len(f.Name); i++ {
			if c := f.Name[i]; 'A' <= c && c <= 'Z' {
				return reqInfo{}, errValidate("header name has uppercase letters", f.Name)
			}
		}
		switch f.Name {
		case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade":
			return reqInfo{}, errValidate("connection-specific header", f.Name)
		case "te":
			if f.Value != "trailers" {
				return reqInfo{}, errValidate(`te header other than "trailers"`, f.Name)
			}
		case "content-type":
			if info.contentType == "" {
				info.contentType = f.Value
			}
		case "grpc-encoding":
			if info.grpcEncoding == "" {
				info.grpcEncoding = f.Value
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
	if seen&7 != 7 {
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
	clear(xh.fields)
	xh.fields = xh.fields[:0]
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
	x.enc.WriteField(hpack.HeaderField{Name: ":status", Value: "200"})
	x.enc.WriteField(hpack.HeaderField{Name: "content-type", Value: "application/grpc"})
	if req != nil {
		for _, f := range req.(*xnetHeaders).fields {
			if echoed(f.Name) {
				x.enc.WriteField(f)
			}
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
			n += fieldSize(f.Name, f.Value)
		}
	}
	return n
}

func (x *xnetCodec) writeStatus(status int, msg string) {
	x.enc.WriteField(hpack.HeaderField{Name: "grpc-status", Value: grpcStatusString(status)})
	if msg != "" {
		x.enc.WriteField(hpack.HeaderField{Name: "grpc-message", Value: encodeGRPCMessage(msg)})
	}
}

func (x *xnetCodec) appendGRPCTrailers(dst []byte, status int, msg string) []byte {
	x.begin(dst)
	x.writeStatus(status, msg)
	return x.end()
}

func (x *xnetCodec) appendTextHeaders(dst []byte, status int, contentLength int) []byte {
	x.begin(dst)
	x.enc.WriteField(hpack.HeaderField{Name: ":status", Value: strconv.Itoa(status)})
	x.enc.WriteField(hpack.HeaderField{Name: "content-type", Value: textContentType})
	x.enc.WriteField(hpack.HeaderField{Name: "content-length", Value: strconv.Itoa(contentLength)})
	return x.end()
}
