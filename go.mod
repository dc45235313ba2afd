module github.com/metapack/metapack

go 1.26.0

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	golang.org/x/net v0.62.0 // indirect
)
