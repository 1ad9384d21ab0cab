// A Go net/http API under /v1 on a ServeMux (the standard library only). An
// unknown path gets ServeMux's text/plain "404 page not found" (EH-2 fails);
// /v1/items refuses every method but GET with 405 and no Allow header, HEAD
// included (HM-1 and HM-3 fail).
// tests/integration/test_fixes.py replaces each line marked "fix:<check>"
// with probes/fixes/go-net-http.yaml's text for that check.
package main

import (
	"fmt"
	"net/http"
	"os"
)

// The 405 as an RFC 9457 problem (so EH-2 judges only ServeMux's own 404).
func methodNotAllowed(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(http.StatusMethodNotAllowed)
	fmt.Fprint(w, `{"type": "about:blank", "title": "Method Not Allowed", "status": 405, "detail": "The resource does not support this method."}`)
}

func main() {
	doc, err := os.ReadFile("openapi.json")
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"items": "/v1/items"}`)
	})
	mux.HandleFunc("/v1/items", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet { methodNotAllowed(w); return } // fix:HM-1 fix:HM-3
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `[{"id": 1}]`)
	})
	mux.HandleFunc("/v1/openapi.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Write(doc)
	})
	// fix:EH-2
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("API-Version", "1.0.0")
		mux.ServeHTTP(w, r)
	})
	if err := http.ListenAndServe("127.0.0.1:"+os.Args[1], handler); err != nil {
		panic(err)
	}
}
