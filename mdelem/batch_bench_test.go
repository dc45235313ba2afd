package mdelem

import (
	"testing"

	"github.com/metapack/metapack/staticdata"
	xhpack "golang.org/x/net/http2/hpack"
)

// BenchmarkBatch builds the same 9-field gRPC request and looks up :path,
// :authority, content-type and grpc-timeout. Both sides start from the
// same received bytes, as a server has them: well-known names and values
// are constants (static atoms here, string constants for x/net), the rest
// are byte slices. Ours copies them into the batch's arena; the xnet side
// holds the request as []xhpack.HeaderField, which needs a string for each,
// and searches it linearly, as x/net users do.
func BenchmarkBatch(b *testing.B) {
	path, authority := []byte("/helloworld.Greeter/SayHello"), []byte("greeter.internal:50051")
	timeout, ua := []byte("99m"), []byte("grpc-go/1.64.0")
	tenantKey, tenant := []byte("x-tenant-id"), []byte("tenant-42")
	var (
		method, post  = staticdata.KeyMethod.Atom(), staticdata.Lookup("POST")
		scheme, http  = staticdata.KeyScheme.Atom(), staticdata.Lookup("http")
		ct, grpc      = staticdata.KeyContentType.Atom(), staticdata.Lookup("application/grpc")
		te, trailers  = staticdata.KeyTe.Atom(), staticdata.Lookup("trailers")
		pathK, authK  = staticdata.KeyPath.Atom(), staticdata.KeyAuthority.Atom()
		timeoutK, uaK = staticdata.KeyGrpcTimeout.Atom(), staticdata.KeyUserAgent.Atom()
		found         int
	)
	bytesIn := len(":methodPOST:schemehttp:path:authoritycontent-typeapplication/grpctetrailersgrpc-timeoutuser-agent") +
		len(path) + len(authority) + len(timeout) + len(ua) + len(tenantKey) + len(tenant)
	b.Run("op=build_lookup/impl=metapack", func(b *testing.B) {
		b.SetBytes(int64(bytesIn))
		b.ReportAllocs()
		batch := NewBatch(16, 256)
		for b.Loop() {
			batch.Reset()
			batch.Append(From(method, post))
			batch.Append(From(scheme, http))
			batch.Append(From(pathK, Borrowed(path)))
			batch.Append(From(authK, Borrowed(authority)))
			batch.Append(From(ct, grpc))
			batch.Append(From(te, trailers))
			batch.Append(From(timeoutK, Borrowed(timeout)))
			batch.Append(From(uaK, Borrowed(ua)))
			batch.Append(From(Borrowed(tenantKey), Borrowed(tenant)))
			for _, k := range [...]staticdata.KeyID{staticdata.KeyPath, staticdata.KeyAuthority, staticdata.KeyContentType, staticdata.KeyGrpcTimeout} {
				if _, ok := batch.Get(k); ok {
					found++
				}
			}
		}
	})
	b.Run("op=build_lookup/impl=xnet", func(b *testing.B) {
		b.SetBytes(int64(bytesIn))
		b.ReportAllocs()
		fields := make([]xhpack.HeaderField, 0, 16)
		for b.Loop() {
			fields = fields[:0]
			fields = append(fields,
				xhpack.HeaderField{Name: ":method", Value: "POST"},
				xhpack.HeaderField{Name: ":scheme", Value: "http"},
				xhpack.HeaderField{Name: ":path", Value: string(path)},
				xhpack.HeaderField{Name: ":authority", Value: string(authority)},
				xhpack.HeaderField{Name: "content-type", Value: "application/grpc"},
				xhpack.HeaderField{Name: "te", Value: "trailers"},
				xhpack.HeaderField{Name: "grpc-timeout", Value: string(timeout)},
				xhpack.HeaderField{Name: "user-agent", Value: string(ua)},
				xhpack.HeaderField{Name: string(tenantKey), Value: string(tenant)},
			)
			for _, name := range [...]string{":path", ":authority", "content-type", "grpc-timeout"} {
				for i := range fields {
					if fields[i].Name == name {
						found++
						break
					}
				}
			}
		}
	})
	if found == 0 {
		b.Fatal("no lookups succeeded")
	}
}
