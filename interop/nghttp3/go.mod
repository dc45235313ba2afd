module github.com/metapack/metapack/interop/nghttp3

go 1.26.0

require github.com/metapack/metapack v0.0.0

require github.com/cespare/xxhash/v2 v2.3.0 // indirect

replace github.com/metapack/metapack => ../..
