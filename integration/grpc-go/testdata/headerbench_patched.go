// A/B microbenchmark of grpc-go's header path alone (run.sh ab copies it
// into internal/transport of each tree): the client encodes a request block,
// the server decodes it and builds the metadata map as operateHeaders does;
// the server encodes the response headers and trailers, the client decodes
// them. Patched grpc-go (and the control): operateHeaderFields' loops.

package transport

import sd "github.com/metapack/metapack/staticdata"

func abInit(l *loopyWriter) { l.hw.setIndexCredentials(true) }

func abServerRead(fr *framer) int {
	f, err := fr.readFrame()
	if err != nil {
		panic(err)
	}
	frame := f.(*parsedHeadersFrame)
	md := newMDBuilder(frame.fields)
	for _, hf := range frame.fields {
		switch hf.key {
		case sd.KeyContentType, sd.KeyGrpcAcceptEncoding:
			md.add(hf.name, hf.value)
		case sd.KeyGrpcEncoding, sd.KeyMethod, sd.KeyPath, sd.KeyGrpcTimeout:
		default:
			if hf.key == sd.KeyUnknown && hf.name == "connection" {
				break
			}
			if isReservedKey(hf.key, hf.name) && !isWhitelistedKey(hf.key) {
				break
			}
			v, _ := decodeMetadataHeader(hf.name, hf.value)
			md.add(hf.name, v)
		}
	}
	return len(md.md)
}

func abClientRead(fr *framer) int {
	f, err := fr.readFrame()
	if err != nil {
		panic(err)
	}
	frame := f.(*parsedHeadersFrame)
	md := newMDBuilder(frame.fields)
	for _, hf := range frame.fields {
		switch hf.key {
		case sd.KeyContentType:
			md.add(hf.name, hf.value)
		case sd.KeyGrpcEncoding, sd.KeyGrpcStatus, sd.KeyGrpcMessage, sd.KeyStatus:
		default:
			if isReservedKey(hf.key, hf.name) && !isWhitelistedKey(hf.key) {
				break
			}
			v, _ := decodeMetadataHeader(hf.name, hf.value)
			md.add(hf.name, v)
		}
	}
	return len(md.md)
}
