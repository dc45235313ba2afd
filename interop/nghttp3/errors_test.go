//go:build nghttp3

package nghttp3

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/metapack/metapack/interop/nghttp3/ngqpack"
	"github.com/metapack/metapack/qpack"
)

// outcome is how a decoder ends an encoded file: "ok", "blocked" (a
// section still waits at the end), or the class of the first error.
type outcome string

func ourOutcome(err error) outcome {
	var e *qpack.Error
	switch {
	case err == nil:
		return "ok"
	case qpack.IsStreamError(err):
		return "stream error (limit)"
	case errors.As(err, &e) && e.Code == qpack.ErrCodeEncoderStream:
		return "QPACK_ENCODER_STREAM_ERROR"
	case errors.As(err, &e) && e.Code == qpack.ErrCodeDecompressionFailed:
		return "QPACK_DECOMPRESSION_FAILED"
	}
	return outcome("other: " + err.Error())
}

func ngOutcome(err error) outcome {
	switch ngqpack.Code(err) {
	case 0:
		if err == nil {
			return "ok"
		}
		return outcome("other: " + err.Error())
	case ngqpack.ErrEncoderStream:
		return "QPACK_ENCODER_STREAM_ERROR"
	case ngqpack.ErrDecompressionFailed:
		return "QPACK_DECOMPRESSION_FAILED"
	case ngqpack.ErrHeaderTooLarge:
		return "stream error (limit)"
	}
	return outcome("other: " + err.Error())
}

// playFile feeds an encoded file's records to dec: stream 0's to its
// encoder stream, the others as sections, blocked ones resumed when
// their inserts come. It returns the first error, and the errors'
// classifier's verdict.
func playFile(dec decoder, recs []ngqpack.Record) error {
	for _, r := range recs {
		if r.Stream == 0 {
			if err := dec.readEncoderStream(r.Data); err != nil {
				return err
			}
			for _, id := range dec.unblocked() {
				if _, _, err := dec.resume(id); err != nil {
					return err
				}
			}
			continue
		}
		if _, _, err := dec.decode(r.Stream, r.Data); err != nil {
			return err
		}
	}
	if dec.blockedCount() > 0 {
		return errBlockedAtEnd
	}
	return nil
}

var errBlockedAtEnd = errors.New("a section is still blocked at the end")

// classify names how a decoder ended: "ok", "blocked", or its error's
// class (f).
func classify(err error, f func(error) outcome) outcome {
	if errors.Is(err, errBlockedAtEnd) {
		return "blocked"
	}
	return f(err)
}

// allowed returns the RFC 9204 reason why qpack.Decoder may end with
// oursErr where nghttp3 ends with ngErr on recs, with a table of the given
// capacity, or "" when nothing explains the difference. doc.go lists the
// same reasons.
func allowed(oursErr, ngErr error, recs []ngqpack.Record, capacity uint64) string {
	ours, ng := classify(oursErr, ourOutcome), classify(ngErr, ngOutcome)
	switch {
	case errors.Is(oursErr, qpack.ErrRequiredInserts) && ng == "ok":
		return "§2.2.1: a Required Insert Count larger than the section needs; a decoder MAY reject it, nghttp3 does not"
	case ng == "stream error (limit)" && (ours == "stream error (limit)" || errors.Is(oursErr, qpack.ErrTruncated) || errors.Is(oursErr, qpack.ErrIntegerOverflow)):
		return "§7.4: a string length over nghttp3's own limit, which nghttp3 checks before the input's end or qpack's limit"
	case (errors.Is(oursErr, qpack.ErrEntryTooLarge) || errors.Is(oursErr, qpack.ErrPartialTooLong)) && ng != "QPACK_ENCODER_STREAM_ERROR":
		return "§3.2.2, §4.3: qpack rejects an insert once its length prefixes show it cannot fit; nghttp3 only when the instruction is complete, so it fails later or never"
	case ng == "QPACK_ENCODER_STREAM_ERROR" && ours != ng && completedFails(recs, capacity):
		return "§4.3: nghttp3 rejects an encoder instruction's invalid part (a Huffman-coded name) as soon as that part is complete; qpack when the whole instruction is, and does once the test completes it"
	}
	return ""
}

// completedFails reports whether qpack.Decoder, given the encoder stream
// of recs followed by filler bytes that complete any instruction left
// partial, fails with QPACK_ENCODER_STREAM_ERROR.
func completedFails(recs []ngqpack.Record, capacity uint64) bool {
	d := newOurDecoder(capacity, 100)
	for _, r := range recs {
		if r.Stream == 0 {
			if err := d.readEncoderStream(r.Data); err != nil {
				return ourOutcome(err) == "QPACK_ENCODER_STREAM_ERROR"
			}
		}
	}
	return ourOutcome(d.readEncoderStream(make([]byte, 8192))) == "QPACK_ENCODER_STREAM_ERROR"
}

// TestErrorFiles decodes the offline-interop corpus's malformed files
// (encoded/errors) with both decoders, which must end the same way: both
// accept, or both fail with the same error code.
func TestErrorFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(ngqpack.Shared(t, "qifs", "encoded", "errors"), "err*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no error files: %v", err)
	}
	for _, f := range files {
		recs, err := ngqpack.ReadRecords(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, capacity := range []uint64{0, 4096} {
			t.Run(fmt.Sprintf("%s,cap=%d", filepath.Base(f), capacity), func(t *testing.T) {
				oursErr := playFile(newOurDecoder(capacity, 100), recs)
				ngErr := playFile(newNgDecoder(t, capacity, 100), recs)
				ours, theirs := classify(oursErr, ourOutcome), classify(ngErr, ngOutcome)
				if ours != theirs && allowed(oursErr, ngErr, recs, capacity) == "" {
					t.Errorf("records %x: qpack.Decoder: %s (%v); nghttp3: %s (%v)", recs, ours, oursErr, theirs, ngErr)
				} else {
					t.Logf("qpack.Decoder %s, nghttp3 %s", ours, theirs)
				}
			})
		}
	}
}
