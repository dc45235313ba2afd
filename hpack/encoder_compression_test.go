package hpack

import (
	"bytes"
	"github.com/metapack/metapack/internal/indexpolicy"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"

	"github.com/metapack/metapack/internal/story"
	"github.com/metapack/metapack/mdelem"
	"github.com/metapack/metapack/staticdata"
)

// maxRawDataRatio is the compression the Encoder must reach on the
// raw-data stories at table size 4096: wire bytes over header bytes. For
// comparison, x/net's encoder reaches 0.3108 and nghttp2's 0.3087.
const maxRawDataRatio = 0.305

// encRatio returns the wire/header ratio of encoding each story with a
// fresh Encoder of table size 4096, under policy (nil for the default).
func encRatio(policy indexPolicy, stories ...[][]story.Header) float64 {
	n := 0
	var buf []byte
	for _, lists := range stories {
		e := policyEncoder{NewEncoder(DefaultTableSize), policy}
		for _, hs := range lists {
			buf = e.AppendBlock(buf[:0], encBatch(hs))
			n += len(buf)
		}
	}
	return float64(n) / float64(encHeaderBytes(stories...))
}

// encXnetRatio is encRatio for x/net's Encoder with default settings;
// sensitive tells which fields to mark Sensitive (nil for none).
func encXnetRatio(sensitive func(story.Header) bool, stories ...[][]story.Header) float64 {
	n := 0
	var buf bytes.Buffer
	for _, lists := range stories {
		e := xhpack.NewEncoder(&buf)
		for _, hs := range lists {
			buf.Reset()
			for _, h := range hs {
				e.WriteField(xhpack.HeaderField{Name: h.Name, Value: h.Value, Sensitive: sensitive != nil && sensitive(h)})
			}
			n += buf.Len()
		}
	}
	return float64(n) / float64(encHeaderBytes(stories...))
}

// encNeverIndexed tells which fields our default policy never indexes,
// for giving x/net the same ones as Sensitive.
func encNeverIndexed(h story.Header) bool {
	a := staticdata.Lookup(h.Name)
	return a != nil && indexpolicy.NeverIndexed(a.Key(), len(h.Value))
}

// encIndexAuthorization is a policy that indexes authorization as x/net
// does, and leaves everything else to the default policy.
func encIndexAuthorization(f mdelem.Field) indexing {
	if a := f.Name.Atom(); a != nil && a.Key() == staticdata.KeyAuthorization {
		return indexIncremental
	}
	return indexDefault
}

func TestEncoderCompression(t *testing.T) {
	// The gRPC workload sends a ~300-byte bearer token in most requests.
	// Our default policy never indexes it (RFC 7541 §7.1.3) and x/net's
	// does, so the fair comparisons are: the same fields never-indexed on
	// both sides, and authorization indexed on both sides.
	grpc := encGRPCStory()
	ours := encRatio(nil, grpc)
	xnet := encXnetRatio(nil, grpc)
	xnetSame := encXnetRatio(encNeverIndexed, grpc)
	oursAuth := encRatio(encIndexAuthorization, grpc)
	t.Logf("grpc workload (%d lists, seed %d), default policies: metapack %.4f, x/net %.4f", encGRPCLists, encGRPCSeed, ours, xnet)
	t.Logf("grpc workload, authorization never indexed by both: metapack %.4f, x/net %.4f", ours, xnetSame)
	t.Logf("grpc workload, authorization indexed by both: metapack %.4f, x/net %.4f", oursAuth, xnet)
	if ours > xnetSame {
		t.Errorf("grpc workload, same never-indexed fields: ratio %.4f is worse than x/net's %.4f", ours, xnetSame)
	}
	if oursAuth > xnet {
		t.Errorf("grpc workload, authorization indexed: ratio %.4f is worse than x/net's %.4f", oursAuth, xnet)
	}

	raw := encRawStories(t)
	ours = encRatio(nil, raw...)
	xnet = encXnetRatio(nil, raw...)
	t.Logf("raw-data (%d stories, table 4096): metapack %.4f, x/net %.4f", len(raw), ours, xnet)
	if ours > maxRawDataRatio {
		t.Errorf("raw-data: ratio %.4f, want at most %.3f", ours, maxRawDataRatio)
	}
}
