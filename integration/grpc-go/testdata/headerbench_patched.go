// A/B microbenchmark of grpc-go's header path alone (run.sh ab copies it
// into internal/transport of each tree): the client encodes a request block,
// the server decodes it and builds the metadata map as operateHeaders does;
// the server encodes the response headers and trailers, the client decodes
// them. Patched grpc-go (and the control): operateHeaders' loops over a
// MetaHeadersFrame, with the patch's mdBuilder.

package transport

import "golang.org/x/net/http2"

func abInit(l *loopyWriter) { l.hw.setIndexCredentials(true) }

func abServerRead(fr *framer) int {
	f, err := fr.readFrame()
	if err != nil {
		panic(err)
	}
	frame := f.(*http2.MetaHeadersFrame)
	md := newMDBuilder(frame.Fields)
	for _, hf := range frame.Fields {
		switch hf.Name {
		case "content-type", "grpc-accept-encoding":
			md.add(hf.Name, hf.Value)
		case "grpc-encoding", ":method", ":path", "grpc-timeout", "connection":
		default:
			if isReservedHeader(hf.Name) && !isWhitelistedHeader(hf.Name) {
				break
			}
			v, _ := decodeMetadataHeader(hf.Name, hf.Value)
			md.add(hf.Name, v)
		}
	}
	return len(md.md)
}

func abClientRead(fr *framer) int {
	f, err := fr.readFrame()
	if err != nil {
		panic(err)
	}
	frame := f.(*http2.MetaHeadersFrame)
	md := newMDBuilder(frame.Fields)
	for _, hf := range frame.Fields {
		switch hf.Name {
		case "content-type":
			md.add(hf.Name, hf.Value)
		case "grpc-encoding", "grpc-status", "grpc-message", ":status":
		default:
			if isReservedHeader(hf.Name) && !isWhitelistedHeader(hf.Name) {
				break
			}
			v, _ := decodeMetadataHeader(hf.Name, hf.Value)
			md.add(hf.Name, v)
		}
	}
	return len(md.md)
}
