module github.com/metapack/metapack/interop/nghttp3

go 1.26.0

require github.com/metapack/metapack v0.0.0

replace github.com/metapack/metapack => ../..
