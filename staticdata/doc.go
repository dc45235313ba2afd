// Package staticdata names the header strings every HTTP/2, HTTP/3 and
// gRPC peer knows: the names and values of the RFC 7541 (HPACK) and RFC
// 9204 (QPACK) static tables and the gRPC well-known metadata keys and
// values. Each is an [Atom], one canonical copy of the string, and each
// HPACK static-table name and gRPC well-known key has a [KeyID] constant.
//
// [Lookup] takes a string or a byte slice and returns its atom, or nil,
// without allocating. A KeyID names a well-known key: mdelem's
// Batch.Get(staticdata.KeyPath) finds :path in O(1), and k.Atom() is a
// field name mdelem takes without copying. An atom's Key method turns a
// looked-up name into its key:
//
//	if a := staticdata.Lookup(name); a.Key() == staticdata.KeyGrpcTimeout {
//		...
//	}
//
// The tier holds values as well as names ([Atom.IsName] tells them
// apart). The tables are computed by ../gen into *_gen.go files; to
// regenerate after changing gen/ or gen/data:
//
//	go generate ./staticdata
package staticdata

//go:generate go run ../gen -data ../gen/data -root ..
