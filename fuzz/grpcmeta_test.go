package fuzz

import (
	"bytes"
	"encoding/base64"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/metapack/metapack/grpcmeta"
	"github.com/metapack/metapack/mdelem"
)

// FuzzGrpcBase64 holds grpcmeta's binary-metadata codec to
// encoding/base64: the fuzzer's bytes, encoded by AppendBinary and by
// the padded encoding, decode back to themselves through DecodeBinary;
// the bytes themselves, as a -bin value, decode exactly when
// encoding/base64 (padded for a length that is a multiple of 4, as
// grpc-go reads it, unpadded otherwise) decodes them, to the same bytes,
// appending nothing on an error; and ValidateMetadata accepts them as a
// -bin value exactly then, for values of printable ASCII.
func FuzzGrpcBase64(f *testing.F) {
	for _, s := range []string{"", "Zg", "Zg==", "Zm8=", "Zm9v", "Zg=", "Z", "Zg==Zg==", "A===", "AA,AA", "-_8", "AA\nAA", "\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out := mdelem.NewBatch(1, 2*len(data)+16)
		if _, err := grpcmeta.AppendBinary(out, nil, "x-fuzz-bin", data); err != nil || out.Len() != 1 {
			t.Fatalf("AppendBinary(%x): %v", data, err)
		}
		raw := out.At(0).Value.UnsafeBytes()
		if want := base64.RawStdEncoding.EncodeToString(data); string(raw) != want {
			t.Fatalf("AppendBinary(%x) = %q, want %q", data, raw, want)
		}
		for _, enc := range [][]byte{raw, []byte(base64.StdEncoding.EncodeToString(data))} {
			fe := mdelem.From(mdelem.BorrowString("x-fuzz-bin"), mdelem.Borrowed(enc))
			if got, err := grpcmeta.DecodeBinary(nil, fe); err != nil || !bytes.Equal(got, data) {
				t.Fatalf("round trip of %x via %q: %x, %v", data, enc, got, err)
			}
		}

		enc := base64.RawStdEncoding
		if len(data)%4 == 0 {
			enc = base64.StdEncoding
		}
		want, wantErr := enc.DecodeString(string(data))
		fld := mdelem.From(mdelem.BorrowString("x-fuzz-bin"), mdelem.Borrowed(data))
		got, err := grpcmeta.DecodeBinary([]byte("p"), fld)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("DecodeBinary(%q): error %v, encoding/base64 %v", data, err, wantErr)
		}
		if err != nil {
			if !errors.Is(err, grpcmeta.ErrValue) || string(got) != "p" {
				t.Fatalf("DecodeBinary(%q) = %q, %v", data, got, err)
			}
		} else if !bytes.Equal(got[1:], want) {
			t.Fatalf("DecodeBinary(%q) = %x, encoding/base64 %x", data, got[1:], want)
		}
		if printable(data) {
			b := mdelem.NewBatch(1, len(data))
			b.Append(fld)
			if verr := grpcmeta.ValidateMetadata(b); (verr == nil) != (err == nil) {
				t.Fatalf("ValidateMetadata of -bin value %q: %v; DecodeBinary %v", data, verr, err)
			}
		}
	})
}

func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

// FuzzGrpcMessage round-trips the fuzzer's bytes through the
// grpc-message percent-encoder and decoder, checks that the encoding is
// Percent-Encoded (printable ASCII, '%' only before two upper-case hex
// digits), and decodes the bytes themselves leniently: the result is
// what a byte-by-byte reading of the rule gives, and never longer.
func FuzzGrpcMessage(f *testing.F) {
	for _, s := range []string{"", "hello", "100%", "%", "%4", "%zz", "%41", "%e6%97%a5", "日本", "\x00\xff", "%%41%"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		enc := grpcmeta.AppendMessage(nil, data)
		for i := 0; i < len(enc); i++ {
			switch c := enc[i]; {
			case c == '%':
				if i+2 >= len(enc) || !upperHex(enc[i+1]) || !upperHex(enc[i+2]) {
					t.Fatalf("encoding of %q: bad escape at %d in %q", data, i, enc)
				}
				i += 2
			case c < 0x20 || c > 0x7e:
				t.Fatalf("encoding of %q: byte %#x in %q", data, c, enc)
			}
		}
		if back := grpcmeta.DecodeMessage(nil, enc); !bytes.Equal(back, data) {
			t.Fatalf("round trip of %q: %q via %q", data, back, enc)
		}
		got := grpcmeta.DecodeMessage(nil, data)
		if want := lenientDecode(data); !bytes.Equal(got, want) {
			t.Fatalf("DecodeMessage(%q) = %q, want %q", data, got, want)
		}
		if s := grpcmeta.DecodeMessage(nil, string(data)); !bytes.Equal(s, got) {
			t.Fatalf("string and bytes disagree on %q", data)
		}
	})
}

// timeoutUnits maps each TimeoutUnit to its duration.
var timeoutUnits = map[byte]time.Duration{'H': time.Hour, 'M': time.Minute, 'S': time.Second, 'm': time.Millisecond, 'u': time.Microsecond, 'n': 1}

func upperHex(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }

func hexVal(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// lenientDecode is the rule read byte by byte: "%" and two hex digits
// is a byte, anything else stays.
func lenientDecode(v []byte) []byte {
	out := []byte{}
	for i := 0; i < len(v); i++ {
		if v[i] == '%' && i+2 < len(v) {
			hi, ok1 := hexVal(v[i+1])
			lo, ok2 := hexVal(v[i+2])
			if ok1 && ok2 {
				out = append(out, hi<<4|lo)
				i += 2
				continue
			}
		}
		out = append(out, v[i])
	}
	return out
}

// FuzzGrpcTimeout formats the fuzzer's durations with AppendTimeout (at
// most 8 digits; parses back to no less than the duration, exactly when
// some value is exact, and one unit less would be too short) and parses
// the fuzzer's strings with ParseTimeout (valid exactly when 1 to 8
// digits and a unit; what it gives formats back to the same duration).
func FuzzGrpcTimeout(f *testing.F) {
	f.Add(int64(0), "1S")
	f.Add(int64(100000001), "100m")
	f.Add(int64(math.MaxInt64), "99999999H")
	f.Add(int64(-1), "123456789n")
	f.Add(int64(time.Hour), "1x")
	f.Fuzz(func(t *testing.T, n int64, s string) {
		d := time.Duration(n)
		v := grpcmeta.AppendTimeout(nil, d)
		if len(v) < 2 || len(v) > 9 {
			t.Fatalf("AppendTimeout(%d) = %q", d, v)
		}
		back, err := grpcmeta.ParseTimeout(v)
		if err != nil || back < max(d, 0) {
			t.Fatalf("AppendTimeout(%d) = %q, which parses to %v, %v", d, v, back, err)
		}
		exact := d <= 0
		for _, u := range timeoutUnits {
			if d > 0 && d%u == 0 && d/u <= 99999999 {
				exact = true
			}
		}
		if exact != (back == max(d, 0)) && back != math.MaxInt64 {
			t.Fatalf("AppendTimeout(%d) = %q: exact %v, parses to %v", d, v, exact, back)
		}
		if back != max(d, 0) && back != math.MaxInt64 && back-timeoutUnits[v[len(v)-1]] >= d {
			t.Fatalf("AppendTimeout(%d) = %q: one unit less is long enough", d, v)
		}

		got, err := grpcmeta.ParseTimeout(s)
		valid := len(s) >= 2 && len(s) <= 9 && timeoutUnits[s[len(s)-1]] != 0
		for i := 0; valid && i < len(s)-1; i++ {
			valid = '0' <= s[i] && s[i] <= '9'
		}
		if (err == nil) != valid {
			t.Fatalf("ParseTimeout(%q) = %v, %v; valid %v", s, got, err, valid)
		}
		if err != nil {
			if !errors.Is(err, grpcmeta.ErrValue) {
				t.Fatalf("ParseTimeout(%q): %v", s, err)
			}
			return
		}
		if got2, _ := grpcmeta.ParseTimeout([]byte(s)); got2 != got {
			t.Fatalf("string and bytes disagree on %q", s)
		}
		if got == math.MaxInt64 {
			return // clamped
		}
		if again, err := grpcmeta.ParseTimeout(grpcmeta.AppendTimeout(nil, got)); err != nil || again != got {
			t.Fatalf("%q = %v formats to %q = %v", s, got, grpcmeta.AppendTimeout(nil, got), again)
		}
	})
}
