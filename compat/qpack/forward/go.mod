module github.com/quic-go/qpack

go 1.26.0

require github.com/metapack/metapack v0.0.0

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	golang.org/x/net v0.62.0 // indirect
)

replace github.com/metapack/metapack => ../../..
