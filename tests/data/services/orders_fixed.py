# The fixed twin of orders_buggy.py (the README's "Test your own service" example): the key is
# reserved under a lock before the work (a concurrent request with it gets 409), the body is
# compared with the key's first body (422 for another), and the first answer is replayed.
import hashlib, threading, time, uuid
from flask import Flask, request

app = Flask(__name__)
orders, answers = {}, {}  # Idempotency-Key -> {"body": sha256, "answer": (order, 201) or None}
lock = threading.Lock()


def problem(status, detail):
    return {"type": "about:blank", "status": status, "detail": detail}, status


@app.post("/orders")
def create_order():
    key = request.headers.get("Idempotency-Key")
    digest = hashlib.sha256(request.get_data()).hexdigest()
    with lock:  # check and reserve in one step
        seen = answers.get(key) if key else None
        if seen is not None:
            if seen["body"] != digest:
                return problem(422, "this key was used with another body")
            if seen["answer"] is None:
                return problem(409, "a request with this key is in progress")
            return seen["answer"]
        if key:
            answers[key] = {"body": digest, "answer": None}
    time.sleep(0.2)  # the work takes time, as in the buggy twin
    order = {"id": uuid.uuid4().hex, **request.get_json()}
    with lock:
        orders[order["id"]] = order
        if key:
            answers[key]["answer"] = (order, 201)
    return order, 201
