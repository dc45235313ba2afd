package grpcmeta

import (
	"errors"
	"testing"

	"github.com/metapack/metapack/intern"
	"github.com/metapack/metapack/mdelem"
)

func batchOf(kv ...string) *mdelem.Batch {
	b := mdelem.NewBatch(len(kv)/2, 0)
	for i := 0; i < len(kv); i += 2 {
		b.Append(mdelem.From(mdelem.BorrowString(kv[i]), mdelem.BorrowString(kv[i+1])))
	}
	return b
}

func TestValidateRequest(t *testing.T) {
	good := []string{":method", "POST", ":scheme", "http", ":path", "/a.B/C", ":authority", "h", "content-type", "application/grpc", "te", "trailers"}
	tests := []struct {
		name string
		kv   []string
		want error
		at   string // the field the error must name
	}{
		{"valid", good, nil, ""},
		{"valid without authority", []string{":method", "GET", ":scheme", "https", ":path", "/"}, nil, ""},
		{"pseudo after regular", []string{":method", "POST", "x-a", "1", ":scheme", "http", ":path", "/"}, errPseudoAfterRegular, ":scheme"},
		{"unknown pseudo", []string{":method", "POST", ":scheme", "http", ":path", "/", ":foo", "x"}, errUnknownPseudo, ":foo"},
		{"response pseudo in request", []string{":status", "200", ":method", "POST", ":scheme", "http", ":path", "/"}, errUnknownPseudo, ":status"},
		{"duplicated pseudo", []string{":method", "POST", ":method", "GET", ":scheme", "http", ":path", "/"}, errDuplicatePseudo, ":method"},
		{"missing path", []string{":method", "POST", ":scheme", "http"}, errMissingPseudo, ":path"},
		{"missing method", []string{":scheme", "http", ":path", "/"}, errMissingPseudo, ":method"},
		{"uppercase", append(append([]string{}, good...), "X-Up", "1"), errUppercaseName, "X-Up"},
		// "POST" is a static-tier string but not a key: its name is checked.
		{"uppercase static string", append(append([]string{}, good...), "POST", "1"), errUppercaseName, "POST"},
		{"uppercase after 8 bytes", append(append([]string{}, good...), "x-long-nAme", "1"), errUppercaseName, "x-long-nAme"},
		{"proxy-connection", append(append([]string{}, good...), "proxy-connection", "x"), ErrConnectionHeader, "proxy-connection"},
		{"pseudo not static", []string{":method", "POST", ":scheme", "http", ":path", "/", ":x-custom-pseudo", "x"}, errUnknownPseudo, ":x-custom-pseudo"},
		{"pseudo not static after regular", []string{":method", "POST", ":scheme", "http", ":path", "/", "x-a", "1", ":x-custom-pseudo", "x"}, errPseudoAfterRegular, ":x-custom-pseudo"},
		{"empty name", append(append([]string{}, good...), "", "1"), errEmptyName, ""},
		{"connection", append(append([]string{}, good...), "connection", "close"), ErrConnectionHeader, "connection"},
		{"keep-alive", append(append([]string{}, good...), "keep-alive", "5"), ErrConnectionHeader, "keep-alive"},
		{"transfer-encoding", append(append([]string{}, good...), "transfer-encoding", "chunked"), ErrConnectionHeader, "transfer-encoding"},
		{"upgrade", append(append([]string{}, good...), "upgrade", "h2c"), ErrConnectionHeader, "upgrade"},
		{"te gzip", []string{":method", "POST", ":scheme", "http", ":path", "/", "te", "gzip"}, errBadTE, "te"},
	}
	for _, tt := range tests {
		err := ValidateRequest(batchOf(tt.kv...))
		if !isRule(err, tt.want) || (err == nil) != (tt.want == nil) {
			t.Errorf("%s: error %v, want %v", tt.name, err, tt.want)
			continue
		}
		if err == nil {
			continue
		}
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Name != tt.at {
			t.Errorf("%s: error %v does not name field %q", tt.name, err, tt.at)
		}
	}
}

// TestValidateNilBatch checks that a nil batch is taken for an empty
// list, not a panic.
func TestValidateNilBatch(t *testing.T) {
	var fe *FieldError
	if err := ValidateRequest(nil); !isRule(err, errMissingPseudo) || !errors.As(err, &fe) || fe.Index != -1 || fe.Name != ":method" {
		t.Errorf("ValidateRequest(nil) = %v, want errMissingPseudo for :method", err)
	}
}

func newTable(t testing.TB) *intern.Table {
	t.Helper()
	return intern.New(intern.Limits{MaxEntries: 1024, MaxBytes: 1 << 20, MaxLen: 64})
}

// isRule reports whether err is a *FieldError for want: the rule's
// sentinel and reason when want is one of the package's rules, else a
// sentinel errors.Is finds.
func isRule(err, want error) bool {
	r, ok := want.(*rule)
	if !ok {
		return errors.Is(err, want)
	}
	var fe *FieldError
	return errors.As(err, &fe) && fe.Err == r.err && fe.Reason == r.reason && errors.Is(err, r.err)
}
