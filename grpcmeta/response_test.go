package grpcmeta

import (
	"errors"
	"github.com/metapack/metapack/intern"
	"testing"

	"github.com/metapack/metapack/mdelem"
)

// TestValidateResponse checks Response-Headers (HTTP-Status ":status
// 200", Content-Type), Trailers (Status present, Status-Message only
// with it, no pseudo-headers) and Trailers-Only (both).
func TestValidateResponse(t *testing.T) {
	head := []string{":status", "200", "content-type", "application/grpc+proto"}
	trail := []string{"grpc-status", "0"}
	cat := func(parts ...[]string) []string {
		var out []string
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	tests := []struct {
		name string
		kind ResponseKind
		kv   []string
		want error
		at   int // the field's index, -1 for a missing one
	}{
		{"headers", ResponseHeaders, cat(head, []string{"grpc-encoding", "gzip", "x-a", "1"}), nil, 0},
		{"headers bare content-type", ResponseHeaders, []string{":status", "200", "content-type", "application/grpc"}, nil, 0},
		{"headers custom content-type", ResponseHeaders, []string{":status", "200", "content-type", "application/grpc+thrift"}, nil, 0},
		{"headers content-type parameters", ResponseHeaders, []string{":status", "200", "content-type", "application/grpc;charset=utf-8"}, nil, 0},
		{"headers 404", ResponseHeaders, []string{":status", "404", "content-type", "application/grpc"}, errHTTPStatus, 0},
		{"headers no status", ResponseHeaders, []string{"content-type", "application/grpc"}, errMissingPseudo, -1},
		{"headers duplicate status", ResponseHeaders, []string{":status", "200", ":status", "200", "content-type", "application/grpc"}, errDuplicatePseudo, 1},
		{"headers request pseudo", ResponseHeaders, []string{":status", "200", ":path", "/", "content-type", "application/grpc"}, errUnknownPseudo, 1},
		{"headers unknown pseudo", ResponseHeaders, []string{":status", "200", ":x", "1", "content-type", "application/grpc"}, errUnknownPseudo, 1},
		{"headers pseudo after regular", ResponseHeaders, []string{"content-type", "application/grpc", ":status", "200"}, errPseudoAfterRegular, 1},
		{"headers no content-type", ResponseHeaders, []string{":status", "200"}, ErrContentType, -1},
		{"headers html", ResponseHeaders, []string{":status", "200", "content-type", "text/html"}, ErrContentType, 1},
		{"headers grpcweb", ResponseHeaders, []string{":status", "200", "content-type", "application/grpc-web"}, ErrContentType, 1},
		{"headers message without status", ResponseHeaders, cat(head, []string{"grpc-message", "x"}), errMessageWithoutStatus, 2},
		{"headers uppercase", ResponseHeaders, cat(head, []string{"X-A", "1"}), errUppercaseName, 2},
		{"headers connection", ResponseHeaders, cat(head, []string{"connection", "close"}), ErrConnectionHeader, 2},
		{"headers transfer-encoding", ResponseHeaders, cat(head, []string{"transfer-encoding", "chunked"}), ErrConnectionHeader, 2},
		{"headers empty name", ResponseHeaders, cat(head, []string{"", "1"}), errEmptyName, 2},
		{"trailers", ResponseTrailers, cat(trail, []string{"grpc-message", "ok%20then", "x-a", "1"}), nil, 0},
		{"trailers undefined code", ResponseTrailers, []string{"grpc-status", "99"}, nil, 0},
		{"trailers no status", ResponseTrailers, []string{"x-a", "1"}, errMissingStatus, -1},
		{"trailers empty", ResponseTrailers, nil, errMissingStatus, -1},
		{"trailers message without status", ResponseTrailers, []string{"x-a", "1", "grpc-message", "boom"}, errMessageWithoutStatus, 1},
		{"trailers status not decimal", ResponseTrailers, []string{"grpc-status", "OK"}, ErrStatus, 0},
		{"trailers status negative", ResponseTrailers, []string{"grpc-status", "-1"}, ErrStatus, 0},
		{"trailers pseudo", ResponseTrailers, cat([]string{":status", "200"}, trail), errPseudoInTrailers, 0},
		{"trailers pseudo later", ResponseTrailers, cat(trail, []string{":x", "1"}), errPseudoInTrailers, 1},
		{"trailers-only", ResponseTrailersOnly, cat(head, trail, []string{"grpc-message", "m"}), nil, 0},
		{"trailers-only no status", ResponseTrailersOnly, head, errMissingStatus, -1},
		{"trailers-only no content-type", ResponseTrailersOnly, cat([]string{":status", "200"}, trail), ErrContentType, -1},
		{"trailers-only 503", ResponseTrailersOnly, cat([]string{":status", "503", "content-type", "application/grpc"}, trail), errHTTPStatus, 0},
		{"trailers-only bad status", ResponseTrailersOnly, cat(head, []string{"grpc-status", ""}), ErrStatus, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateResponse(batchOf(tt.kv...), tt.kind)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("ValidateResponse: %v", err)
				}
				return
			}
			var fe *FieldError
			if !isRule(err, tt.want) || !errors.As(err, &fe) || fe.Index != tt.at {
				t.Fatalf("error %v, want %v at field %d", err, tt.want, tt.at)
			}
			if tt.at >= 0 && fe.Name != tt.kv[2*tt.at] {
				t.Fatalf("error %v names %q, want %q", err, fe.Name, tt.kv[2*tt.at])
			}
		})
	}
}

func TestValidateResponseArgs(t *testing.T) {
	for _, k := range []ResponseKind{0, 4, 255} {
		if err := ValidateResponse(batchOf(":status", "200"), k); !errors.Is(err, ErrArgument) {
			t.Errorf("kind %d: %v", k, err)
		}
	}
	var fe *FieldError
	if err := ValidateResponse(nil, ResponseTrailers); !isRule(err, errMissingStatus) || !errors.As(err, &fe) || fe.Name != "grpc-status" {
		t.Errorf("nil batch: %v", err)
	}
	// Names and values as interned atoms, as a decoder with an interner
	// gives them.
	tab := newTable(t)
	st, _ := intern.Make(tab, "0x")
	up, _ := intern.Make(tab, "X-Up")
	b := mdelem.NewBatch(2, 0)
	b.Append(mdelem.From(mdelem.BorrowString("grpc-status"), mdelem.BorrowString("0")))
	b.Append(mdelem.From(up, st))
	if err := ValidateResponse(b, ResponseTrailers); !isRule(err, errUppercaseName) {
		t.Errorf("interned uppercase name: %v", err)
	}
	b.Reset()
	b.Append(mdelem.From(mdelem.BorrowString("grpc-status"), st))
	if err := ValidateResponse(b, ResponseTrailers); !errors.Is(err, ErrStatus) {
		t.Errorf("interned bad status: %v", err)
	}
}
