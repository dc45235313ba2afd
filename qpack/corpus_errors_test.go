package qpack_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/metapack/metapack/internal/qif"
	"github.com/metapack/metapack/qpack"
)

// qifErrorCases says, for each file of the corpus's encoded/errors (written
// in 2018 against an early draft), what it holds and what RFC 9204 makes of
// it. Each file is one record: a field section on stream 1, or bytes of the
// encoder stream (stream 0) for err11 and err12. Their names give no
// settings; ls-qpack's interop-decode, which the corpus was made with,
// then defaulted to a table capacity of 4096 and 100 blocked streams, and
// each is decoded at those and at 0 and 0, with the same outcome.
//
// Ten of them are errors under RFC 9204; err9 and err10 are not: they index
// static entries 0 and 62, which an early draft's 61-entry table (HPACK's,
// from 1) did not have, and RFC 9204's 99-entry table (Appendix A) has.
var qifErrorCases = []struct {
	file   string
	bytes  string          // the record's payload, as the file holds it
	what   string          // what the bytes are
	rfc    string          // RFC 9204's verdict
	code   qpack.ErrorCode // the error; 0 when it decodes
	fields []qif.Field     // what it decodes to, when it does
	stream uint64          // the record's stream
}{
	{"err1", "\xff",
		"Required Insert Count: its 8-bit prefix is all ones, and the continuation bytes are missing",
		"a truncated prefix (4.5.1, integer 4.1.1): the section cannot be interpreted (6)",
		qpack.ErrCodeDecompressionFailed, nil, 1},
	{"err2", "\x00",
		"Required Insert Count 0, then nothing: the Base byte is missing",
		"a truncated prefix (4.5.1): the section cannot be interpreted (6)",
		qpack.ErrCodeDecompressionFailed, nil, 1},
	{"err3", "\x00\xff",
		"Required Insert Count 0; Sign 1 and Delta Base's 7-bit prefix all ones, its continuation missing",
		"a truncated prefix (4.5.1.2, integer 4.1.1): the section cannot be interpreted (6)",
		qpack.ErrCodeDecompressionFailed, nil, 1},
	{"err4", "\x00\x81",
		"Required Insert Count 0, Sign 1, Delta Base 1: Base = 0 - 1 - 1 = -2",
		"a Sign of 1 with Required Insert Count <= Delta Base MUST be treated as invalid (4.5.1.2)",
		qpack.ErrCodeDecompressionFailed, nil, 1},
	{"err5", "\x00\x00\x41",
		"empty prefix, then a literal field line with name reference (01NT), T=0: dynamic, relative index 1; no value follows",
		"a dynamic reference at or over the Required Insert Count, 0 (2.2.3, 4.5.4), and a truncated line",
		qpack.ErrCodeDecompressionFailed, nil, 1},
	{"err6", "\x00\x00\x27",
		"empty prefix, then a literal field line with literal name (001NH), its name length's 3-bit prefix all ones, continuation missing",
		"a truncated line (4.5.6, integer 4.1.1): the section cannot be interpreted (6)",
		qpack.ErrCodeDecompressionFailed, nil, 1},
	{"err7", "\x00\x00\x51\xff",
		"empty prefix, a literal field line with static name reference 1 (:path), then the value: Huffman, its 7-bit length prefix all ones, continuation missing",
		"a truncated line (4.5.4, string 4.1.2): the section cannot be interpreted (6)",
		qpack.ErrCodeDecompressionFailed, nil, 1},
	{"err8", "\x00\x00\xbf",
		"empty prefix, then an indexed field line (1T), T=0: dynamic, its 6-bit index prefix all ones, continuation missing",
		"a dynamic reference with a Required Insert Count of 0 (2.2.3, 4.5.2), and a truncated line",
		qpack.ErrCodeDecompressionFailed, nil, 1},
	{"err9", "\x00\x00\xc0",
		"empty prefix, then an indexed field line, T=1: static index 0",
		"valid: static entry 0 is :authority with an empty value (Appendix A)",
		0, []qif.Field{{Name: ":authority", Value: ""}}, 1},
	{"err10", "\x00\x00\xfe",
		"empty prefix, then an indexed field line, T=1: static index 62",
		"valid: static entry 62 is x-xss-protection: 1; mode=block (Appendix A)",
		0, []qif.Field{{Name: "x-xss-protection", Value: "1; mode=block"}}, 1},
	{"err11", "\x01",
		"encoder stream: Duplicate (000) of relative index 1, with an empty table",
		"a reference in an encoder instruction to an entry that does not exist (2.2.3, 4.3.4)",
		qpack.ErrCodeEncoderStream, nil, 0},
	{"err12", "\xff\x80\xff\xff\xff\xff\x01",
		"encoder stream: Insert with Name Reference (1T), T=1: static, index 63 + 0 + 127<<7 + 127<<14 + 127<<21 + 127<<28 + 1<<35 = 68,719,476,671 (2^36 - 65); no value follows",
		"a static index over the table's 99 entries on the encoder stream MUST be treated as QPACK_ENCODER_STREAM_ERROR (3.1); the index is complete before the missing value",
		qpack.ErrCodeEncoderStream, nil, 0},
}

// TestQIFErrors decodes each file of encoded/errors and checks RFC 9204's
// verdict on it: the error code, or the fields.
func TestQIFErrors(t *testing.T) {
	dir := qif.Path(t, "encoded", "errors")
	files, _ := filepath.Glob(filepath.Join(dir, "err*"))
	if len(files) != len(qifErrorCases) {
		t.Errorf("%d files in encoded/errors, want %d", len(files), len(qifErrorCases))
	}
	for _, tt := range qifErrorCases {
		data, err := os.ReadFile(filepath.Join(dir, tt.file))
		if err != nil {
			t.Error(err)
			continue
		}
		recs, err := qif.ParseRecords(data)
		if err != nil || len(recs) != 1 || recs[0].StreamID != tt.stream || string(recs[0].Data) != tt.bytes {
			t.Errorf("%s: records %v (%v), want one of stream %d holding %x", tt.file, recs, err, tt.stream, tt.bytes)
			continue
		}
		for _, cfg := range []qif.Config{{Capacity: 4096, Blocked: 100}, {}} {
			t.Run(fmt.Sprintf("%s/capacity=%d,blocked=%d", tt.file, cfg.Capacity, cfg.Blocked), func(t *testing.T) {
				got, err := qif.Decode(recs, cfg)
				if tt.code == 0 {
					if err != nil {
						t.Fatalf("%s: %v; want it decoded: %s", tt.what, err, tt.rfc)
					}
					if diff := cmp.Diff(map[uint64][]qif.Field{tt.stream: tt.fields}, got); diff != "" {
						t.Errorf("%s (-want +got):\n%s", tt.what, diff)
					}
					return
				}
				var qe *qpack.Error
				if !errors.As(err, &qe) {
					t.Fatalf("%s: got %v, error %v; want a *qpack.Error with code %#x: %s", tt.what, got, err, tt.code, tt.rfc)
				}
				if qe.Code != tt.code {
					t.Errorf("%s: code %#x (%v), want %#x: %s", tt.what, qe.Code, err, tt.code, tt.rfc)
				}
				if tt.stream != qif.EncoderStream && qe.StreamID != tt.stream {
					t.Errorf("error %v names stream %d, want %d", err, qe.StreamID, tt.stream)
				}
				if qpack.IsStreamError(err) {
					t.Errorf("IsStreamError(%v) = true; a malformed input is a connection error", err)
				}
			})
		}
	}
}
