// A/B microbenchmark of grpc-go's header path alone (run.sh ab copies it
// into internal/transport of each tree): the client encodes a request block,
// the server decodes it and builds the metadata map as operateHeaders does;
// the server encodes the response headers and trailers, the client decodes
// them. Stock grpc-go: operateHeaders' loops over a MetaHeadersFrame.

package transport

import "golang.org/x/net/http2"

func abInit(*loopyWriter) {}

func abServerRead(fr *framer) int {
	f, err := fr.readFrame()
	if err != nil {
		panic(err)
	}
	frame := f.(*http2.MetaHeadersFrame)
	mdata := make(map[string][]string, len(frame.Fields))
	for _, hf := range frame.Fields {
		switch hf.Name {
		case "content-type", "grpc-accept-encoding":
			mdata[hf.Name] = append(mdata[hf.Name], hf.Value)
		case "grpc-encoding", ":method", ":path", "grpc-timeout", "connection":
		default:
			if isReservedHeader(hf.Name) && !isWhitelistedHeader(hf.Name) {
				break
			}
			v, _ := decodeMetadataHeader(hf.Name, hf.Value)
			mdata[hf.Name] = append(mdata[hf.Name], v)
		}
	}
	return len(mdata)
}

func abClientRead(fr *framer) int {
	f, err := fr.readFrame()
	if err != nil {
		panic(err)
	}
	frame := f.(*http2.MetaHeadersFrame)
	mdata := make(map[string][]string)
	for _, hf := range frame.Fields {
		switch hf.Name {
		case "content-type":
			mdata[hf.Name] = append(mdata[hf.Name], hf.Value)
		case "grpc-encoding", "grpc-status", "grpc-message", ":status":
		default:
			if isReservedHeader(hf.Name) && !isWhitelistedHeader(hf.Name) {
				break
			}
			v, _ := decodeMetadataHeader(hf.Name, hf.Value)
			mdata[hf.Name] = append(mdata[hf.Name], v)
		}
	}
	return len(mdata)
}
