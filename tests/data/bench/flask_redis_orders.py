"""The reference of `scripts/lab bench-serve`: an idempotent POST /orders as the seed article
describes it (Flask, the key reserved in Redis with SET NX, the answer stored under the key and
replayed), written for this comparison; run with Flask's threaded server on PORT (argv[1]) and
Redis on REDIS_PORT (argv[2])."""
import json
import sys

import redis
from flask import Flask, Response, request

app = Flask(__name__)
store = redis.Redis(host="127.0.0.1", port=int(sys.argv[2]), decode_responses=True)


@app.post("/orders")
def post_order():
    key = request.headers.get("Idempotency-Key")
    order = request.get_json(silent=True)
    if not isinstance(order, dict) or not isinstance(order.get("ref"), str):
        return Response('{"title":"Bad Request"}', status=400, mimetype="application/problem+json")
    if key:
        # Reserve the key; a second request with it replays what the first one stored.
        if not store.set("idem:" + key, "", nx=True, ex=86400):
            saved = store.get("idem:" + key)
            if not saved:
                return Response('{"title":"Conflict"}', status=409, mimetype="application/problem+json")
            return Response(saved, status=201, mimetype="application/json",
                            headers={"Idempotent-Replayed": "true"})
    order_id = store.incr("orders:next")
    body = json.dumps({"id": order_id, **order})
    store.set("order:%d" % order_id, body)
    if key:
        store.set("idem:" + key, body, ex=86400)
    return Response(body, status=201, mimetype="application/json")


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(sys.argv[1]), threaded=True)
