// The API's OpenAPI 3.1 document, served at /api/v1/openapi.json: docs/openapi.json, the same
// bytes (Tests/e2e/test_server_api.py compares them). Edit docs/openapi.json, then
// scripts/gen-openapi-swift writes this file again.

/// The OpenAPI document.
enum APIDocument {
    static let text = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "qrcheckin-server API",
    "version": "1",
    "description": "The check-in server's API, on the console's listener (admin-listen) only. Every call but this document's carries Authorization: Bearer TOKEN (qrcheckin-server token add); a read token reads, a checkin token also checks in and out. Each call is written to the audit log under the token's name. Errors are RFC 9457 problem details. docs/SERVER.md, \"The API\"."
  },
  "servers": [
    {
      "url": "/"
    }
  ],
  "security": [
    {
      "bearer": []
    }
  ],
  "paths": {
    "/api/v1/openapi.json": {
      "get": {
        "operationId": "openapi",
        "summary": "This document.",
        "security": [],
        "responses": {
          "200": {
            "description": "The OpenAPI document.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/checkins": {
      "get": {
        "operationId": "listCheckIns",
        "summary": "The visitor log, oldest first, a page at a time (keyset: pass next as after).",
        "parameters": [
          {
            "name": "venue",
            "in": "query",
            "schema": {
              "$ref": "#/components/schemas/VenueID"
            },
            "description": "Only this venue's check-ins (a token of one venue: that venue; of several: required)."
          },
          {
            "name": "from",
            "in": "query",
            "schema": {
              "type": "string",
              "format": "date-time"
            },
            "description": "At or after this moment (RFC 3339 with its offset)."
          },
          {
            "name": "until",
            "in": "query",
            "schema": {
              "type": "string",
              "format": "date-time"
            },
            "description": "Before this moment."
          },
          {
            "name": "after",
            "in": "query",
            "schema": {
              "type": "string",
              "pattern": "^[0-9]{1,18}\\.[0-9]{1,18}$"
            },
            "description": "The next cursor of the page before."
          },
          {
            "name": "limit",
            "in": "query",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000,
              "default": 100
            }
          }
        ],
        "responses": {
          "200": {
            "description": "A page.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/CheckInPage"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          },
          "403": {
            "$ref": "#/components/responses/Problem"
          },
          "429": {
            "$ref": "#/components/responses/Problem"
          },
          "503": {
            "$ref": "#/components/responses/Problem"
          }
        }
      },
      "post": {
        "operationId": "checkIn",
        "summary": "A staff check-in (method staff, the token as operator); the venue's capacity holds.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/NewCheckIn"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Recorded.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/CheckIn"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          },
          "403": {
            "$ref": "#/components/responses/Problem"
          },
          "409": {
            "$ref": "#/components/responses/Problem"
          },
          "413": {
            "$ref": "#/components/responses/Problem"
          },
          "415": {
            "$ref": "#/components/responses/Problem"
          },
          "429": {
            "$ref": "#/components/responses/Problem"
          },
          "503": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/api/v1/checkins/{id}/checkout": {
      "post": {
        "operationId": "checkOut",
        "summary": "Ends the visit of this check-in (exit kind staff); an ended visit is returned as it is.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The visit with its exit.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/CheckIn"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          },
          "403": {
            "$ref": "#/components/responses/Problem"
          },
          "404": {
            "$ref": "#/components/responses/Problem"
          },
          "429": {
            "$ref": "#/components/responses/Problem"
          },
          "503": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/api/v1/venues": {
      "get": {
        "operationId": "listVenues",
        "summary": "Per venue the token covers: who is inside, the capacity, today's check-ins.",
        "responses": {
          "200": {
            "description": "The venues.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "venues"
                  ],
                  "properties": {
                    "venues": {
                      "type": "array",
                      "items": {
                        "$ref": "#/components/schemas/Venue"
                      }
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          },
          "403": {
            "$ref": "#/components/responses/Problem"
          },
          "429": {
            "$ref": "#/components/responses/Problem"
          },
          "503": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/api/v1/venues/{venue}/inside": {
      "get": {
        "operationId": "inside",
        "summary": "Who is inside the venue now (the evacuation roll), oldest first.",
        "parameters": [
          {
            "name": "venue",
            "in": "path",
            "required": true,
            "schema": {
              "$ref": "#/components/schemas/VenueID"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The open visits.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "venue",
                    "inside"
                  ],
                  "properties": {
                    "venue": {
                      "type": "string"
                    },
                    "inside": {
                      "type": "array",
                      "items": {
                        "$ref": "#/components/schemas/CheckIn"
                      }
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          },
          "403": {
            "$ref": "#/components/responses/Problem"
          },
          "404": {
            "$ref": "#/components/responses/Problem"
          },
          "429": {
            "$ref": "#/components/responses/Problem"
          },
          "503": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearer": {
        "type": "http",
        "scheme": "bearer",
        "description": "qrc_ and 64 hex digits (qrcheckin-server token add)."
      }
    },
    "responses": {
      "Problem": {
        "description": "A problem (RFC 9457). A request the HTTP layer refuses before the API reads it (a target with an encoded separator or a control byte, a head too large) is answered in text/plain.",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          },
          "text/plain": {
            "schema": {
              "type": "string"
            }
          }
        }
      }
    },
    "schemas": {
      "VenueID": {
        "type": "string",
        "pattern": "^[A-Z0-9-][A-Z0-9.-]{0,15}$"
      },
      "CheckIn": {
        "type": "object",
        "description": "A check-in, with the members of the visitor log's exports (qrcheckin-server checkins --format jsonl).",
        "required": [
          "id",
          "venue",
          "time",
          "local_time",
          "method",
          "window_age",
          "device",
          "name",
          "phone",
          "operator",
          "exit",
          "exit_kind",
          "stay_seconds"
        ],
        "properties": {
          "id": {
            "type": "integer",
            "description": "The receipt number."
          },
          "venue": {
            "type": "string"
          },
          "time": {
            "type": "string",
            "description": "When, in UTC (RFC 3339, milliseconds)."
          },
          "local_time": {
            "type": "string",
            "description": "When, in the server's time zone, with its offset."
          },
          "method": {
            "type": "string",
            "description": "qr, safe-number, staff, …"
          },
          "window_age": {
            "type": [
              "integer",
              "null"
            ]
          },
          "device": {
            "type": [
              "string",
              "null"
            ]
          },
          "name": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 1,
            "maxLength": 64,
            "description": "1 to 64 characters, no control or format characters."
          },
          "phone": {
            "type": [
              "string",
              "null"
            ],
            "pattern": "^[ ()+.-]*([0-9][ ()+.-]*){7,15}$",
            "description": "7 to 15 digits; spaces, ( ) . - + are dropped."
          },
          "operator": {
            "type": [
              "string",
              "null"
            ]
          },
          "exit": {
            "type": [
              "string",
              "null"
            ]
          },
          "exit_kind": {
            "type": [
              "string",
              "null"
            ]
          },
          "stay_seconds": {
            "type": [
              "integer",
              "null"
            ]
          }
        }
      },
      "CheckInPage": {
        "type": "object",
        "required": [
          "checkins",
          "next"
        ],
        "properties": {
          "checkins": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/CheckIn"
            }
          },
          "next": {
            "type": [
              "string",
              "null"
            ],
            "description": "The cursor of the next page (after=), null on the last."
          }
        }
      },
      "NewCheckIn": {
        "type": "object",
        "required": [
          "venue"
        ],
        "additionalProperties": false,
        "properties": {
          "venue": {
            "$ref": "#/components/schemas/VenueID"
          },
          "name": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 1,
            "maxLength": 64,
            "description": "1 to 64 characters, no control or format characters."
          },
          "phone": {
            "type": [
              "string",
              "null"
            ],
            "pattern": "^[ ()+.-]*([0-9][ ()+.-]*){7,15}$",
            "description": "7 to 15 digits; spaces, ( ) . - + are dropped."
          }
        }
      },
      "Venue": {
        "type": "object",
        "required": [
          "venue",
          "name",
          "inside",
          "capacity",
          "today"
        ],
        "properties": {
          "venue": {
            "type": "string"
          },
          "name": {
            "type": "string"
          },
          "inside": {
            "type": "integer",
            "minimum": 0
          },
          "capacity": {
            "type": [
              "integer",
              "null"
            ]
          },
          "today": {
            "type": "integer",
            "minimum": 0
          }
        }
      },
      "Problem": {
        "type": "object",
        "required": [
          "type",
          "title",
          "status",
          "detail"
        ],
        "properties": {
          "type": {
            "type": "string"
          },
          "title": {
            "type": "string"
          },
          "status": {
            "type": "integer"
          },
          "detail": {
            "type": "string"
          }
        }
      }
    }
  }
}

"""#
}
