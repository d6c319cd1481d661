import time, uuid
from flask import Flask, request
app = Flask(__name__)
orders, answers = {}, {}                # Idempotency-Key -> the first answer

@app.post("/orders")
def create_order():
    key = request.headers.get("Idempotency-Key")
    if key in answers:                  # check ...
        return answers[key]             # (replay the first answer)
    time.sleep(0.2)                     # the work takes time
    order = {"id": uuid.uuid4().hex, **request.get_json()}
    orders[order["id"]] = order
    if key: answers[key] = (order, 201) # ... then insert: no lock, no body check
    return order, 201
