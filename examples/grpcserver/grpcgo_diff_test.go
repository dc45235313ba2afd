package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/metapack/metapack/grpcmeta"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// reportMethod is a method of the echo service that only the tests
// register (echoMethods is the server's method table).
const reportMethod = "ReportMetadata"

func init() { echoMethods[reportMethod] = reportMetadata }

// reportMetadata reads the call's one message, then replies with what the
// server decoded from the request's metadata, with the code the echo and
// the status use: the bytes of each x-echo-*-bin value (eachBinary, as
// appendGRPCHeaders reads it) and the status message (requestedStatus,
// as serveGRPC reads it), as records (see appendRecord). serveGRPC then
// ends the call with the requested status.
func reportMetadata(st *stream) (int, string) {
	rep := make([]byte, 5, 4096) // the message's prefix, filled in below
	var dec []byte
	st.eachMetadata(func(name, value string) {
		if echoed(name) && grpcmeta.IsBinary(name) {
			dec = eachBinary(dec, name, value, func(d []byte) { rep = appendRecord(rep, 'b', name, d) })
		}
	})
	if _, msg, ok := requestedStatus(st); ok {
		rep = appendRecord(rep, 'm', hdrEchoStatusMessage, []byte(msg))
	}
	binary.BigEndian.PutUint32(rep[1:], uint32(len(rep)-5))
	msg, code, text := recv(st)
	if msg == nil {
		if code < 0 {
			return codeInternal, "no request message"
		}
		return code, text
	}
	st.releaseMsg(msg)
	if more, code, text := recv(st); more != nil || code >= 0 {
		if more != nil {
			st.releaseMsg(more)
		}
		return codeInternal, "want one request message: " + text
	}
	if err := st.sendMsg(rep); err != nil {
		return codeInternal, err.Error()
	}
	return codeOK, ""
}

// appendRecord appends a record of the report: kind, then name and value,
// each preceded by its length as a uvarint.
func appendRecord(b []byte, kind byte, name string, value []byte) []byte {
	b = append(b, kind)
	b = binary.AppendUvarint(b, uint64(len(name)))
	b = append(b, name...)
	b = binary.AppendUvarint(b, uint64(len(value)))
	return append(b, value...)
}

// parseReport reads the records of a report: the binary values by name,
// in order, and the status message, if there is one.
func parseReport(b []byte) (bin map[string][]string, msg *string, err error) {
	bin = map[string][]string{}
	next := func() (string, error) {
		n, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < n {
			return "", fmt.Errorf("bad record length")
		}
		s := string(b[k : k+int(n)])
		b = b[k+int(n):]
		return s, nil
	}
	for len(b) > 0 {
		kind := b[0]
		b = b[1:]
		name, err := next()
		if err != nil {
			return nil, nil, err
		}
		value, err := next()
		if err != nil {
			return nil, nil, err
		}
		switch kind {
		case 'b':
			bin[name] = append(bin[name], value)
		case 'm':
			msg = &value
		default:
			return nil, nil, fmt.Errorf("bad record kind %q", kind)
		}
	}
	return bin, msg, nil
}

// diffCounts counts the cases of TestGRPCGoMetadataDifferential.
type diffCounts struct {
	calls                 int
	binSent, binEchoed    int // client→server decode, server→client encode
	msgDecoded, msgGotten int // status messages: read by the server, read back by grpc-go
	msgBarePercent        int // messages sent with a '%' left bare (a malformed sequence)
	msgInvalidUTF8        int // messages of bytes that are not UTF-8
	binBytes, msgBytes    [256]bool
}

// TestGRPCGoMetadataDifferential holds the server's gRPC metadata code
// (grpcmeta, through eachBinary, requestedStatus and the codecs) to
// grpc-go's client, with random cases from a fixed seed:
//
//   - binary metadata: a grpc-go client sends x-echo-*-bin values of
//     random bytes (every byte value, lengths 0 to 300, several values
//     of one name). The server must read exactly the bytes grpc-go's
//     metadata.MD holds (reported by reportMetadata), and the client must
//     read back, from the echoed response headers that grpc-go decodes,
//     exactly the bytes it sent;
//   - status messages: the client sends random bytes (every byte value,
//     multi-byte and invalid UTF-8, '%' sequences) percent-encoded in
//     x-echo-status-message: encoded strictly (upper- or lower-case hex,
//     and printable bytes sometimes encoded too) or with a '%' left bare
//     where no two hex digits follow it, which the protocol's lenient
//     decoding keeps as it is. The server must decode exactly the bytes
//     meant, and end the call with them as its status message; grpc-go
//     must give back exactly those bytes from status.FromError, with the
//     code asked for in x-echo-status.
//
// grpc-go replaces invalid UTF-8 with U+FFFD only in the messages it
// encodes (its server); its client decodes grpc-message byte for byte,
// and status.FromError does not check UTF-8, so no case is excluded: the
// test counts the messages that are not UTF-8. Both codecs are run, each
// with at least 1,000 cases in every direction.
func TestGRPCGoMetadataDifferential(t *testing.T) {
	const seed = 28 // issue 28
	const calls = 1100
	t.Logf("seed %d, %d calls per codec", seed, calls)
	for _, codec := range []string{codecMetapack, codecXnet} {
		t.Run(codec, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 0))
			cc := dial(t, startServer(t, Config{Codec: codec}))
			var n diffCounts
			for i := range calls {
				if err := diffCall(cc, rng, &n); err != nil {
					t.Fatalf("call %d: %v", i, err)
				}
			}
			t.Logf("%d calls: binary metadata: %d values read by the server (client→server decode), %d read back by grpc-go (server→client encode); "+
				"status messages: %d read by the server (%d with a bare '%%', %d not UTF-8), %d read back by grpc-go",
				n.calls, n.binSent, n.binEchoed, n.msgDecoded, n.msgBarePercent, n.msgInvalidUTF8, n.msgGotten)
			for what, counts := range map[string][]int{
				"client→server binary": {n.binSent}, "server→client binary": {n.binEchoed},
				"client→server status message": {n.msgDecoded}, "server→client status message": {n.msgGotten},
			} {
				if counts[0] < 1000 {
					t.Errorf("%s: %d cases, want at least 1,000", what, counts[0])
				}
			}
			for c := range 256 {
				if !n.binBytes[c] || !n.msgBytes[c] {
					t.Errorf("byte %#x not covered: in binary values %v, in messages %v", c, n.binBytes[c], n.msgBytes[c])
				}
			}
		})
	}
}

// diffCall makes one call of TestGRPCGoMetadataDifferential.
func diffCall(cc *grpc.ClientConn, rng *rand.Rand, n *diffCounts) error {
	md := metadata.MD{}
	for k := range rng.IntN(9) {
		key := fmt.Sprintf("x-echo-d%d-bin", k)
		for range 1 + rng.IntN(3)/2 { // one value, or two
			v := randomBinary(rng)
			md.Append(key, string(v))
			for _, c := range v {
				n.binBytes[c] = true
			}
		}
	}
	msg := randomMessage(rng)
	for _, c := range msg {
		n.msgBytes[c] = true
	}
	enc, bare := encodeMessage(rng, msg)
	md.Set(hdrEchoStatusMessage, enc)
	code := codes.Unknown
	if rng.IntN(10) != 0 {
		code = codes.Code(1 + rng.IntN(16))
		s := strconv.Itoa(int(code))
		if rng.IntN(10) == 0 {
			s = "00" + s // leading zeros are still the code
		}
		md.Set(hdrEchoStatus, s)
	}

	ctx, cancel := context.WithTimeout(metadata.NewOutgoingContext(context.Background(), md), 20*time.Second)
	defer cancel()
	cs, err := cc.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}, echoService+reportMethod)
	if err != nil {
		return err
	}
	in := []byte("report")
	if err := cs.SendMsg(&in); err != nil {
		return err
	}
	if err := cs.CloseSend(); err != nil {
		return err
	}
	var rep []byte
	if err := cs.RecvMsg(&rep); err != nil {
		return fmt.Errorf("report: %v", err)
	}
	err = cs.RecvMsg(&rep)
	header, herr := cs.Header()
	if herr != nil {
		return herr
	}
	n.calls++

	// The server read what grpc-go's metadata holds.
	bin, gotMsg, perr := parseReport(rep)
	if perr != nil {
		return perr
	}
	for k, want := range md {
		if !grpcmeta.IsBinary(k) {
			continue
		}
		if !slices.Equal(bin[k], want) {
			return fmt.Errorf("server read %s as %q, want %q", k, bin[k], want)
		}
		n.binSent += len(want)
		delete(bin, k)
	}
	if len(bin) != 0 {
		return fmt.Errorf("server read binary metadata not sent: %q", bin)
	}
	if gotMsg == nil {
		return fmt.Errorf("server did not read x-echo-status-message %q", enc)
	}
	if *gotMsg != string(msg) {
		return fmt.Errorf("server decoded x-echo-status-message %q as %q, want %q", enc, *gotMsg, msg)
	}
	n.msgDecoded++
	if bare {
		n.msgBarePercent++
	}
	if !utf8.Valid(msg) {
		n.msgInvalidUTF8++
	}

	// grpc-go read back what it sent.
	for k, want := range md {
		if got := header.Get(k); !slices.Equal(got, want) {
			return fmt.Errorf("echoed %s: %q, want %q", k, got, want)
		}
		if grpcmeta.IsBinary(k) {
			n.binEchoed += len(want)
		}
	}
	st, ok := status.FromError(err)
	if err == io.EOF || !ok {
		return fmt.Errorf("call ended with %v, want status %v", err, code)
	}
	if st.Code() != code || st.Message() != string(msg) {
		return fmt.Errorf("status %v %q, want %v %q (sent as %q)", st.Code(), st.Message(), code, msg, enc)
	}
	n.msgGotten++
	return nil
}

// randomBinary returns a binary metadata value: random bytes, 0 to 300 of
// them, short lengths (each length mod 3, and 0) more often.
func randomBinary(rng *rand.Rand) []byte {
	n := rng.IntN(301)
	if rng.IntN(4) == 0 {
		n = rng.IntN(7)
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// randomMessage returns a status message of one of several kinds: random
// bytes, UTF-8 of 1 to 4 bytes a rune, '%' sequences (well-formed or not,
// as text the server must keep), printable ASCII, or pieces of these with
// invalid UTF-8 (lone continuation bytes, cut sequences, overlong forms,
// surrogates).
func randomMessage(rng *rand.Rand) []byte {
	var b []byte
	n := rng.IntN(120)
	if rng.IntN(20) == 0 {
		n = 0
	}
	switch kind := rng.IntN(5); kind {
	case 0:
		for range n {
			b = append(b, byte(rng.Uint32()))
		}
	case 1:
		for range n / 2 {
			b = utf8.AppendRune(b, randomRune(rng))
		}
	case 2:
		const pct = "%%%0123456789abcdefABCDEFgzG "
		for range n {
			b = append(b, pct[rng.IntN(len(pct))])
		}
	case 3:
		for range n {
			b = append(b, byte(0x20+rng.IntN(0x5f)))
		}
	default:
		bad := []string{"\x80", "\xbf", "\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xc0\xaf", "\xed\xa0\x80", "\xff", "\xfe", "%", "%4", "%zz", "%C3%A9", "é", "€", "😀", "\uFFFD"}
		for range n / 3 {
			switch rng.IntN(3) {
			case 0:
				b = append(b, bad[rng.IntN(len(bad))]...)
			case 1:
				b = utf8.AppendRune(b, randomRune(rng))
			default:
				b = append(b, byte(rng.Uint32()))
			}
		}
	}
	return b
}

// randomRune returns a rune of 1 to 4 bytes in UTF-8.
func randomRune(rng *rand.Rand) rune {
	for {
		var r rune
		switch rng.IntN(4) {
		case 0:
			r = rune(rng.IntN(0x80))
		case 1:
			r = rune(0x80 + rng.IntN(0x800-0x80))
		case 2:
			r = rune(0x800 + rng.IntN(0x10000-0x800))
		default:
			r = rune(0x10000 + rng.IntN(0x110000-0x10000))
		}
		if utf8.ValidRune(r) {
			return r
		}
	}
}

// encodeMessage percent-encodes msg as a client may for the server to
// decode: bytes outside 0x20-0x7E as %XX (upper- or lower-case hex),
// printable bytes as they are or sometimes as %XX too, and '%' as %25 or,
// where no two hex digits follow it, left bare, which the protocol's
// lenient decoding keeps as it is. It builds the value from its end, so
// that it knows what follows each bare '%'. bare reports one was left.
func encodeMessage(rng *rand.Rand, msg []byte) (enc string, bare bool) {
	const upper, lower = "0123456789ABCDEF", "0123456789abcdef"
	var rev []string // the value's tokens, last first
	next := ""       // what follows the byte being encoded: its two next bytes
	for i := len(msg) - 1; i >= 0; i-- {
		c := msg[i]
		var tok string
		switch {
		case c == '%' && rng.IntN(2) == 0 && !(len(next) >= 2 && isHexDigit(next[0]) && isHexDigit(next[1])):
			tok, bare = "%", true
		case c >= 0x20 && c <= 0x7e && c != '%' && rng.IntN(8) != 0:
			tok = string(c)
		default:
			hex := upper
			if rng.IntN(3) == 0 {
				hex = lower
			}
			tok = string([]byte{'%', hex[c>>4], hex[c&15]})
		}
		rev = append(rev, tok)
		next = (tok + next)[:min(2, len(tok)+len(next))]
	}
	slices.Reverse(rev)
	return strings.Join(rev, ""), bare
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
